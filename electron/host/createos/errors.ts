// Error types and message builders for the CreateOS client.
// Messages come from the catalogue in shared/createos-api.md §6. They never carry the API key,
// a response body or the cause of a failed network call.

/** What went wrong, for programmatic checks; the message stays the catalogue text. */
export type CreateosErrorCode =
  | 'config'
  | 'http'
  | 'connection'
  | 'aborted'
  | 'invalid_json'
  | 'unsuccessful'
  | 'invalid_response'
  | 'invalid_id'
  | 'invalid_sandbox'
  | 'invalid_input'
  | 'protocol'
  | 'evicted'
  | 'stream_failed'
  | 'cancelled'
  | 'creation_unconfirmed'
  | 'cleanup_unconfirmed';

export interface CreateosErrorDetails {
  /** HTTP status when the provider answered with a failure status. */
  readonly status?: number;
  /** The request label of §5 for HTTP and connection failures. */
  readonly label?: CreateosRequestLabel;
  /** False when the request provably never left the host (aborted while queued). */
  readonly requestSent?: boolean;
  /** Internal, secret-free reason (e.g. "Process tree has not exited."). */
  readonly detail?: string;
  /** For eviction: the oldest sequence the provider still holds, when it said so. */
  readonly oldestAvailableSeq?: number;
}

export class CreateosError extends Error {
  override readonly name: string = 'CreateosError';
  readonly code: CreateosErrorCode;
  readonly status: number | undefined;
  readonly label: CreateosRequestLabel | undefined;
  readonly requestSent: boolean | undefined;
  readonly detail: string | undefined;
  readonly oldestAvailableSeq: number | undefined;

  constructor(code: CreateosErrorCode, message: string, details: CreateosErrorDetails = {}) {
    super(message);
    this.code = code;
    this.status = details.status;
    this.label = details.label;
    this.requestSent = details.requestSent;
    this.detail = details.detail;
    this.oldestAvailableSeq = details.oldestAvailableSeq;
  }
}

/** Containment is unproven: the lease must be destroyed before it is reused. */
export class CreateosCleanupError extends CreateosError {
  override readonly name: string = 'CreateosCleanupError';
}

export type CreateosRequestLabel =
  | 'file transfer'
  | 'stdin close'
  | 'output connection'
  | 'process creation'
  | 'process cleanup'
  | 'workspace command'
  | 'sandbox lifecycle';

/** §5: the first matching rule on the request path (query ignored) names the request. */
export function labelForPath(path: string): CreateosRequestLabel {
  const queryAt = path.search(/[?#]/);
  const p = queryAt === -1 ? path : path.slice(0, queryAt);
  if (/\/files?(?:\/|$)/.test(p)) return 'file transfer';
  if (/\/stdin\/close(?:\/|$)/.test(p)) return 'stdin close';
  if (/\/connect(?:\/|$)/.test(p)) return 'output connection';
  if (/\/processes\/?$/.test(p)) return 'process creation';
  if (p.includes('/processes/')) return 'process cleanup';
  if (/\/exec\/?$/.test(p)) return 'workspace command';
  return 'sandbox lifecycle';
}

export const messages = {
  apiUrlRequired: 'CreateOS requires an API URL.',
  apiUrlInvalid: 'CreateOS API URL is invalid.',
  apiUrlNotHttpsOrigin: 'CreateOS API URL must be an HTTPS origin (optionally ending in /v1); HTTP is allowed on loopback only.',
  apiKeyRequired: 'CreateOS requires an API key in the environment config or CREATEOS_API_KEY.',
  timeoutMs: 'timeoutMs must be an integer between 1 and 86400000.',
  connectionFailed: 'CreateOS connection failed.',
  invalidJson: 'CreateOS returned invalid JSON.',
  unsuccessful: 'CreateOS returned an unsuccessful response.',
  invalidResponse: 'CreateOS returned an invalid response.',
  invalidResourceId: 'CreateOS returned an invalid resource ID.',
  invalidSandbox: 'CreateOS sandbox identity or state is invalid.',
  commandNul: 'Sandbox command values cannot contain NUL.',
  commandRequired: 'A sandbox command is required.',
  invalidEnv: 'Invalid sandbox environment variable.',
  emptyStream: 'CreateOS returned an empty process stream.',
  frameTooLarge: 'CreateOS process frame is too large.',
  invalidFrame: 'CreateOS returned an invalid process frame.',
  evicted: 'CreateOS process output was evicted before it could be read.',
  outputConnectionFailed: 'CreateOS process output connection failed.',
  invalidSequence: 'CreateOS process sequence is invalid.',
  sequenceGap: 'CreateOS process output has a sequence gap.',
  invalidOutput: 'CreateOS process output is invalid.',
  exitMissing: 'CreateOS process exit status is missing.',
  streamError: 'CreateOS process stream reported an error.',
  unknownEvent: 'CreateOS returned an unknown process event.',
  endedWithoutExit: 'CreateOS process stream ended without an exit status.',
  cancelled: 'CreateOS command was cancelled.',
  creationUnconfirmed: 'CreateOS process creation could not be confirmed; destroy the lease before reusing it.',
  cleanupUnconfirmed: 'CreateOS command cleanup failed; process termination is unconfirmed.',
  treeNotExited: 'Process tree has not exited.',
} as const;

/** ✱ message for a config key that is present but not a usable string. */
export function nonEmptyStringMessage(key: string): string {
  return `${key} must be a non-empty string.`;
}

export function httpFailureMessage(status: number, label: CreateosRequestLabel): string {
  return `CreateOS request failed (HTTP ${status}) during ${label}.`;
}

export function httpError(status: number, path: string): CreateosError {
  const label = labelForPath(path);
  return new CreateosError('http', httpFailureMessage(status, label), { status, label, requestSent: true });
}

export function isCreateosError(value: unknown): value is CreateosError {
  return value instanceof CreateosError;
}

/** True when `error` is an HTTP failure with exactly this status. */
export function hasStatus(error: unknown, status: number): boolean {
  return error instanceof CreateosError && error.code === 'http' && error.status === status;
}
