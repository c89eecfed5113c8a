// The execute flow of §4: validate, stage stdin, create (never retried), close stdin, stream,
// then a finally-cleanup that proves the process tree is gone or raises a CleanupError.
import { randomUUID } from 'node:crypto';
import type { CreateosApi } from './api';
import { CreateosCleanupError, CreateosError, messages } from './errors';
import { OutputCapture, DEFAULT_TAIL_CHARS } from './output';
import { ProcessOutputStream, type ProcessStreamOptions, type StreamEvent } from './process-stream';
import { assertResourceId } from './schemas';
import { timeoutSignal } from './timeout-signal';

export const DEFAULT_GRACE_MS = 1_000;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ExecuteRequest {
  readonly sandboxId: string;
  /** Program to run (quoted, not interpreted by the shell). */
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Staged as /tmp/paperclip-stdin-<uuid> and redirected; without it stdin is /dev/null. */
  readonly stdin?: string | Uint8Array;
  /** Cancels the command; a TimeoutError reason counts as a timeout. */
  readonly signal?: AbortSignal;
  /** Command timeout; default: the config's timeoutMs when no signal is given. */
  readonly timeoutMs?: number;
}

export interface ExecuteResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly metadata: { readonly processId: string | null; readonly outputTruncated: boolean };
}

export type CleanupOutcome =
  | { readonly processId: string; readonly result: 'tree_exited' | 'already_gone'; readonly at: number }
  | { readonly processId: string; readonly result: 'unconfirmed'; readonly detail: string; readonly at: number };

export interface ExecuteHooks {
  /** Every stream event (data, reconnect, exit) as it happens. */
  readonly onEvent?: (event: StreamEvent) => void;
  /** Called as soon as the provider confirms the process. */
  readonly onProcessId?: (processId: string) => void;
  /** Evidence of the finally-cleanup (the process DELETE and its reply). */
  readonly onCleanup?: (outcome: CleanupOutcome) => void;
}

/** Stream settings execute accepts. Never `gapOnEviction`: for execute, eviction is always the §3/§6 error. */
export type StreamTuning = Pick<ProcessStreamOptions, 'maxAttempts' | 'reconnectDelayMs' | 'waitTimeoutMs' | 'idleTimeoutMs' | 'delay'>;

export interface CommandExecutorOptions {
  readonly api: CreateosApi;
  /** Deadline of the finally-cleanup (a fresh one) and the default command timeout: config.timeoutMs. */
  readonly timeoutMs: number;
  readonly tailChars?: number;
  readonly graceMs?: number;
  readonly stream?: StreamTuning;
  readonly newId?: () => string;
  readonly now?: () => number;
}

export class CommandExecutor {
  private readonly api: CreateosApi;
  private readonly timeoutMs: number;
  private readonly tailChars: number;
  private readonly graceMs: number;
  private readonly streamTuning: StreamTuning;
  private readonly newId: () => string;
  private readonly now: () => number;

  constructor(options: CommandExecutorOptions) {
    this.api = options.api;
    this.timeoutMs = options.timeoutMs;
    this.tailChars = options.tailChars ?? DEFAULT_TAIL_CHARS;
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.streamTuning = options.stream ?? {};
    this.newId = options.newId ?? randomUUID;
    this.now = options.now ?? Date.now;
  }

  async execute(request: ExecuteRequest, hooks: ExecuteHooks = {}): Promise<ExecuteResult> {
    validateRequest(request);
    const { sandboxId } = request;
    const signal = deadline(request, this.timeoutMs);
    const capture = new OutputCapture(this.tailChars);
    let processId: string | null = null;
    let completed = false;
    let creationMayHaveSucceeded = false;
    let stdinPath: string | undefined;
    let stream: ProcessOutputStream | undefined;
    const result = (exitCode: number | null, exitSignal: string | null, timedOut: boolean): ExecuteResult => ({
      exitCode,
      signal: exitSignal,
      timedOut,
      stdout: capture.stdout.toString(),
      stderr: capture.stderr.toString(),
      metadata: { processId, outputTruncated: capture.truncated },
    });
    try {
      try {
        if (request.stdin !== undefined) {
          stdinPath = `/tmp/paperclip-stdin-${this.newId()}`;
          const bytes = typeof request.stdin === 'string' ? Buffer.from(request.stdin, 'utf8') : request.stdin;
          await this.api.putFile(sandboxId, stdinPath, bytes, { signal });
        }
        const script = buildScript(request, stdinPath);
        creationMayHaveSucceeded = true;
        try {
          const created = await this.api.createProcess(
            sandboxId,
            { cmd: '/bin/bash', args: ['-lc', script], ...(request.cwd === undefined ? {} : { cwd: request.cwd }) },
            { signal },
          );
          processId = created.process_id;
        } catch (error) {
          if (provesNothingCreated(error)) creationMayHaveSucceeded = false;
          throw error;
        }
        safeCall(hooks.onProcessId, processId);
        await this.api.closeStdin(sandboxId, processId, { signal });
        stream = new ProcessOutputStream(this.api, {
          ...this.streamTuning,
          sandboxId,
          processId,
          after: 0,
          // Whatever a caller smuggled into the tuning: evicted output is an error here, never a gap.
          gapOnEviction: false,
          onEvent: (event) => {
            if (event.kind === 'data') capture.append(event.stream, event.text);
            safeCall(hooks.onEvent, event);
          },
        });
        const exit = await stream.run(signal);
        completed = true;
        return result(exit.exitCode, exit.signal, false);
      } catch (error) {
        // Precedence (§4): unconfirmed creation, then timeout, then cancel, then the error itself.
        if (creationMayHaveSucceeded && processId === null) {
          throw new CreateosCleanupError('creation_unconfirmed', messages.creationUnconfirmed);
        }
        if (signal.aborted && isTimeout(signal.reason)) {
          // A split UTF-8 sequence at the end of the partial output becomes U+FFFD, not nothing.
          stream?.flush();
          return result(null, null, true);
        }
        if (signal.aborted) throw new CreateosError('cancelled', messages.cancelled);
        throw error;
      }
    } finally {
      const cleanupSignal = AbortSignal.timeout(this.timeoutMs);
      try {
        if (processId !== null && !completed) await this.terminate(sandboxId, processId, cleanupSignal, hooks);
      } finally {
        if (stdinPath !== undefined) {
          // /files has no delete verb: a one-shot rm through /exec, its failure ignored.
          await this.api.exec(sandboxId, { cmd: '/bin/rm', args: ['-f', '--', stdinPath] }, { signal: cleanupSignal }).catch(() => undefined);
        }
      }
    }
  }

  /** DELETE ?grace_ms; only `tree_exited: true` or a 404 proves the tree is gone. */
  private async terminate(sandboxId: string, processId: string, signal: AbortSignal, hooks: ExecuteHooks): Promise<void> {
    let detail: string;
    try {
      const termination = await this.api.deleteProcess(sandboxId, processId, this.graceMs, { signal });
      if (termination === null) {
        safeCall(hooks.onCleanup, { processId, result: 'already_gone', at: this.now() });
        return;
      }
      if (termination.tree_exited === true) {
        safeCall(hooks.onCleanup, { processId, result: 'tree_exited', at: this.now() });
        return;
      }
      detail = messages.treeNotExited;
    } catch (error) {
      detail = error instanceof CreateosError ? error.message : messages.connectionFailed;
    }
    safeCall(hooks.onCleanup, { processId, result: 'unconfirmed', detail, at: this.now() });
    throw new CreateosCleanupError('cleanup_unconfirmed', messages.cleanupUnconfirmed, { detail });
  }
}

function deadline(request: ExecuteRequest, defaultTimeoutMs: number): AbortSignal {
  if (request.signal === undefined) return AbortSignal.timeout(request.timeoutMs ?? defaultTimeoutMs);
  if (request.timeoutMs === undefined) return request.signal;
  return AbortSignal.any([request.signal, timeoutSignal(request.timeoutMs)]);
}

function isTimeout(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

/** Only an API status below 500 (or a request that never left the host) proves nothing was created. */
function provesNothingCreated(error: unknown): boolean {
  if (!(error instanceof CreateosError)) return false;
  if (error.requestSent === false) return true;
  return error.code === 'http' && error.status !== undefined && error.status < 500;
}

function safeCall<T>(hook: ((value: T) => void) | undefined, value: T): void {
  if (hook === undefined) return;
  try {
    hook(value);
  } catch {
    // A consumer's failure must not change the command's outcome or its cleanup.
  }
}

export function validateRequest(request: ExecuteRequest): void {
  // Before anything is sent: a bad sandbox id must never look like an unconfirmed creation.
  assertResourceId(request.sandboxId);
  const env = Object.entries(request.env ?? {});
  for (const [key] of env) {
    if (!ENV_KEY.test(key)) throw new CreateosError('invalid_input', messages.invalidEnv);
  }
  const values = [request.command, ...(request.args ?? []), ...(request.cwd === undefined ? [] : [request.cwd])];
  for (const [, value] of env) values.push(value);
  if (values.some((value) => value.includes('\0'))) throw new CreateosError('invalid_input', messages.commandNul);
  if (request.command.trim() === '') throw new CreateosError('invalid_input', messages.commandRequired);
}

/** POSIX single-quoting: the value is taken literally by bash. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `cd -- '<cwd>' || exit`, then `exec env K='v'… 'cmd' 'args' < '<stdin file>'`. */
export function buildScript(request: Pick<ExecuteRequest, 'command' | 'args' | 'cwd' | 'env'>, stdinPath: string | undefined): string {
  const lines: string[] = [];
  if (request.cwd !== undefined) lines.push(`cd -- ${shellQuote(request.cwd)} || exit`);
  const assignments = Object.entries(request.env ?? {}).map(([key, value]) => `${key}=${shellQuote(value)}`);
  const argv = [shellQuote(request.command), ...(request.args ?? []).map(shellQuote)];
  lines.push(['exec', 'env', ...assignments, ...argv, '<', shellQuote(stdinPath ?? '/dev/null')].join(' '));
  return lines.join('\n');
}
