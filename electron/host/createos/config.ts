// Environment config for the CreateOS client (§1, §5, §6): the API origin, the key and the deadline.
import { CreateosError, messages, nonEmptyStringMessage } from './errors';

export const DEFAULT_TIMEOUT_MS = 300_000;
export const MAX_TIMEOUT_MS = 86_400_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const ALLOWED_PATHS = new Set(['', '/', '/v1', '/v1/']);

export interface CreateosConfigInput {
  readonly apiUrl?: unknown;
  readonly apiKey?: unknown;
  readonly timeoutMs?: unknown;
}

export interface CreateosConfig {
  /** `https://host[:port]` without a trailing slash; the pacer key and the credential-free URL to show. */
  readonly origin: string;
  /** `${origin}/v1`: every request path is appended to it. */
  readonly baseUrl: string;
  /** Not enumerable: JSON.stringify, spreading and console.log of the config never show it. */
  readonly apiKey: string;
  readonly timeoutMs: number;
}

function configError(message: string): CreateosError {
  return new CreateosError('config', message);
}

/** Undefined when absent; throws the ✱ message when present but not a non-empty string. */
function optionalString(input: CreateosConfigInput, key: 'apiUrl' | 'apiKey'): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw configError(nonEmptyStringMessage(key));
  return value;
}

function hasForbiddenKeyChar(value: string): boolean {
  return /[\r\n\0]/.test(value);
}

/** Validates an API URL and returns its origin (§1). */
export function parseApiOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw configError(messages.apiUrlInvalid);
  }
  const notOrigin = configError(messages.apiUrlNotHttpsOrigin);
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) throw notOrigin;
  } else if (url.protocol !== 'https:') {
    throw notOrigin;
  }
  // URL drops an empty "?" or "#", so look at the raw text as well.
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || /[?#@]/.test(raw)) {
    throw notOrigin;
  }
  if (!ALLOWED_PATHS.has(url.pathname)) throw notOrigin;
  return url.origin;
}

/** Validates a key from config or environment: non-empty, no CR, LF or NUL. */
function usableKey(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '' && !hasForbiddenKeyChar(value);
}

/**
 * Parses an environment config. `envApiKey` is the value of CREATEOS_API_KEY, passed explicitly
 * by the caller (this module never reads process.env).
 */
export function parseCreateosConfig(input: unknown, envApiKey?: string): CreateosConfig {
  const record: CreateosConfigInput = typeof input === 'object' && input !== null ? input : {};
  const apiUrl = optionalString(record, 'apiUrl');
  if (apiUrl === undefined) throw configError(messages.apiUrlRequired);
  const origin = parseApiOrigin(apiUrl);

  const timeoutMs = parseTimeoutMs(record.timeoutMs);

  const configKey = optionalString(record, 'apiKey');
  if (configKey !== undefined && hasForbiddenKeyChar(configKey)) throw configError(nonEmptyStringMessage('apiKey'));
  const apiKey: string | undefined = configKey ?? (usableKey(envApiKey) ? envApiKey : undefined);
  if (apiKey === undefined) throw configError(messages.apiKeyRequired);

  const config = { origin, baseUrl: `${origin}/v1`, timeoutMs };
  Object.defineProperty(config, 'apiKey', { value: apiKey, enumerable: false, writable: false, configurable: false });
  return Object.freeze(config) as CreateosConfig;
}

export function parseTimeoutMs(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw configError(messages.timeoutMs);
  }
  return value;
}
