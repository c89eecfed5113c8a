// Resumable output stream of one managed process (§3): `connect?after=<cursor>`, duplicates dropped,
// gaps and bad frames fatal, eviction explicit, a bounded reconnect budget with a /wait fallback.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateosApi } from './api';
import { CreateosError, httpError, messages } from './errors';
import { decodeDataFrame, isSignalName, NdjsonParser, readFrameHeader, type OutputStreamName } from './frames';
import { StreamTextDecoders } from './output';
import type { ManagedProcess } from './schemas';
import { timeoutSignal } from './timeout-signal';

export const DEFAULT_MAX_ATTEMPTS = 4;
export const DEFAULT_RECONNECT_DELAY_MS = 250;
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;

export type ReconnectReason = 'network' | 'rate_limited' | 'server_error' | 'eof' | 'reset';

export type StreamEvent =
  /** Output of one frame. `text` may be '' while a UTF-8 sequence is split; `bytes: 0` marks the final decoder flush. */
  | { readonly kind: 'data'; readonly seq: number; readonly stream: OutputStreamName; readonly text: string; readonly bytes: number }
  | { readonly kind: 'reconnect'; readonly count: number; readonly reason: ReconnectReason }
  /** Output that can no longer be read (evicted before this client saw it). */
  | { readonly kind: 'gap'; readonly fromSeq: number; readonly toSeq: number; readonly reason: 'evicted'; readonly lostBytes?: number }
  | { readonly kind: 'exit'; readonly exitCode: number | null; readonly signal: string | null; readonly source: 'stream' | 'wait' };

export type ExitEvent = Extract<StreamEvent, { kind: 'exit' }>;

export interface ProcessStreamOptions {
  readonly sandboxId: string;
  readonly processId: string;
  /** Last sequence already seen (0 = from the start). */
  readonly after?: number;
  /** Connection attempts before giving up (the first one included). Default 4. */
  readonly maxAttempts?: number;
  readonly reconnectDelayMs?: number;
  /** `timeout_ms` of the /wait fallback once the budget is spent; 0 disables the fallback. Default 30,000. */
  readonly waitTimeoutMs?: number;
  /** Attach mode: eviction becomes a `gap` event and reading goes on from the oldest retained seq. */
  readonly gapOnEviction?: boolean;
  /** Silence on an open connection that counts as a reset; 0 (default) waits forever. */
  readonly idleTimeoutMs?: number;
  readonly onEvent?: (event: StreamEvent) => void;
  /** Injected for tests. */
  readonly delay?: (ms: number, signal: AbortSignal) => Promise<void>;
}

type AttemptOutcome =
  | { readonly kind: 'exit'; readonly event: ExitEvent }
  | { readonly kind: 'retry'; readonly reason: ReconnectReason; readonly phase: 'connect' | 'stream' };

const defaultDelay = (ms: number, signal: AbortSignal): Promise<void> => sleep(ms, undefined, { signal });

export class ProcessOutputStream {
  private cursorSeq: number;
  private reconnectCount = 0;
  private failures = 0;
  private readonly decoders = new StreamTextDecoders();
  private readonly options: ProcessStreamOptions;

  constructor(private readonly api: CreateosApi, options: ProcessStreamOptions) {
    this.options = options;
    this.cursorSeq = options.after ?? 0;
  }

  /** The last accepted sequence number. */
  get cursor(): number {
    return this.cursorSeq;
  }

  /** Reconnects made so far (never reset); each one was also published as a `reconnect` event. */
  get reconnects(): number {
    return this.reconnectCount;
  }

  /** Reads until the `exit` frame; rejects with a catalogue error or the signal's reason. */
  async run(signal: AbortSignal): Promise<ExitEvent> {
    const maxAttempts = this.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const delay = this.options.delay ?? defaultDelay;
    let evictionsWithoutProgress = 0;
    for (;;) {
      signal.throwIfAborted();
      let outcome: AttemptOutcome;
      const cursorBefore = this.cursorSeq;
      try {
        outcome = await this.attempt(signal);
      } catch (error) {
        signal.throwIfAborted();
        if (this.options.gapOnEviction === true && error instanceof CreateosError && error.code === 'evicted') {
          evictionsWithoutProgress = this.cursorSeq === cursorBefore ? evictionsWithoutProgress + 1 : 1;
          if (evictionsWithoutProgress > maxAttempts) throw error;
          await this.skipEvicted(error.oldestAvailableSeq, signal, error);
          continue;
        }
        throw error;
      }
      if (outcome.kind === 'exit') return outcome.event;
      this.failures += 1;
      if (this.failures >= maxAttempts) return this.budgetSpent(outcome.phase, signal);
      this.reconnectCount += 1;
      this.emit({ kind: 'reconnect', count: this.reconnectCount, reason: outcome.reason });
      await delay(this.options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS, signal);
    }
  }

  private emit(event: StreamEvent): void {
    this.options.onEvent?.(event);
  }

  private async attempt(signal: AbortSignal): Promise<AttemptOutcome> {
    const { sandboxId, processId } = this.options;
    let response;
    try {
      response = await this.api.connectOutput(sandboxId, processId, this.cursorSeq, {
        signal,
        ...(this.options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: this.options.idleTimeoutMs }),
      });
    } catch (error) {
      if (error instanceof CreateosError && error.code === 'connection') return { kind: 'retry', reason: 'network', phase: 'connect' };
      throw error;
    }
    const { status, body } = response;
    if (status === 410) throw new CreateosError('evicted', messages.evicted, { status });
    if (status === 429) return { kind: 'retry', reason: 'rate_limited', phase: 'connect' };
    if (status >= 500) return { kind: 'retry', reason: 'server_error', phase: 'connect' };
    if (status === 204) {
      // openStream already releases a 204; any body another source hands over is still ours to destroy.
      body?.destroy();
      throw new CreateosError('protocol', messages.emptyStream, { status });
    }
    if (body === undefined) throw httpError(status, `/sandboxes/${sandboxId}/processes/${processId}/connect`);

    const parser = new NdjsonParser();
    const chunks = body[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch {
        body.destroy();
        signal.throwIfAborted();
        // A network failure mid-body: resume from the last accepted sequence.
        return { kind: 'retry', reason: 'reset', phase: 'stream' };
      }
      if (next.done === true) break;
      let exit: ExitEvent | undefined;
      try {
        exit = this.handleFrames(parser.push(next.value));
      } catch (error) {
        body.destroy();
        throw error;
      }
      if (exit !== undefined) {
        body.destroy();
        return { kind: 'exit', event: exit };
      }
    }
    const exit = this.handleFrames(parser.end());
    if (exit !== undefined) return { kind: 'exit', event: exit };
    return { kind: 'retry', reason: 'eof', phase: 'stream' };
  }

  /**
   * Applies frames in order; returns the exit event when one arrives (later frames are ignored).
   * The sequence is checked first (§3): a replayed duplicate is dropped unread and a gap is fatal;
   * only a frame that is kept has its stream and payload validated.
   */
  private handleFrames(frames: readonly Record<string, unknown>[]): ExitEvent | undefined {
    for (const raw of frames) {
      const header = readFrameHeader(raw);
      if (header.type === 'heartbeat') continue;
      if (header.type === 'exit') return this.finish({ kind: 'exit', exitCode: header.exitCode, signal: header.signal, source: 'stream' });
      if (header.seq <= this.cursorSeq) continue;
      if (header.seq !== this.cursorSeq + 1) throw new CreateosError('protocol', messages.sequenceGap);
      const frame = decodeDataFrame(header);
      this.cursorSeq = frame.seq;
      const text = this.decoders.decode(frame.stream, frame.bytes);
      this.emit({ kind: 'data', seq: frame.seq, stream: frame.stream, text, bytes: frame.bytes.length });
    }
    return undefined;
  }

  /** Flushes split UTF-8 at the end, then reports the exit. */
  private finish(exit: ExitEvent): ExitEvent {
    this.flush();
    this.emit(exit);
    return exit;
  }

  /**
   * Ends both UTF-8 decoders, emitting an incomplete trailing sequence as U+FFFD (a `data` event with
   * `bytes: 0`). For a caller that stops reading without an exit, e.g. on a timeout.
   */
  flush(): void {
    const rest = this.decoders.flush();
    for (const stream of ['stdout', 'stderr'] as const) {
      if (rest[stream] !== '') this.emit({ kind: 'data', seq: this.cursorSeq, stream, text: rest[stream], bytes: 0 });
    }
  }

  /** Attach mode: report the evicted range as a gap and continue from the oldest retained frame. */
  private async skipEvicted(oldestFromFrame: number | undefined, signal: AbortSignal, original: CreateosError): Promise<void> {
    let oldest = oldestFromFrame;
    if (oldest === undefined) {
      const process = await this.api.getProcess(this.options.sandboxId, this.options.processId, { signal });
      oldest = process.output?.oldest_seq;
    }
    if (oldest === undefined || oldest <= this.cursorSeq + 1) throw original;
    this.flush();
    this.emit({ kind: 'gap', fromSeq: this.cursorSeq + 1, toSeq: oldest - 1, reason: 'evicted' });
    this.cursorSeq = oldest - 1;
  }

  /** Budget spent: ask /wait for the tree's exit; use it only if no output was missed. */
  private async budgetSpent(phase: 'connect' | 'stream', signal: AbortSignal): Promise<ExitEvent> {
    const failure = new CreateosError('stream_failed', phase === 'connect' ? messages.outputConnectionFailed : messages.endedWithoutExit);
    const waitTimeoutMs = this.options.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    if (waitTimeoutMs <= 0) throw failure;
    let process: ManagedProcess;
    try {
      const bounded = AbortSignal.any([signal, timeoutSignal(waitTimeoutMs + 5_000)]);
      process = await this.api.waitProcess(this.options.sandboxId, this.options.processId, { scope: 'tree', timeoutMs: waitTimeoutMs }, { signal: bounded });
    } catch {
      signal.throwIfAborted();
      throw failure;
    }
    const exitCode = typeof process.exit_code === 'number' ? process.exit_code : null;
    const exitSignal = isSignalName(process.signal) ? process.signal : null;
    if (process.output?.newest_seq !== this.cursorSeq || (exitCode === null && exitSignal === null)) throw failure;
    return this.finish({ kind: 'exit', exitCode, signal: exitSignal, source: 'wait' });
  }
}

/** Where to start reading a process the console did not start (issue 4 item 2). */
export interface AttachPlan {
  readonly after: number;
  readonly gap?: { readonly fromSeq: number; readonly toSeq: number };
}

export function planAttach(process: ManagedProcess): AttachPlan {
  const oldest = process.output?.oldest_seq;
  if (oldest === undefined || oldest <= 1) return { after: 0 };
  return { after: oldest - 1, gap: { fromSeq: 1, toSeq: oldest - 1 } };
}

/**
 * Attaches to any process: replays from seq 1 when the journal still holds it, otherwise from the
 * oldest retained frame after an explicit `gap` event. Later evictions also become gaps.
 */
export async function attachProcessOutput(
  api: CreateosApi,
  options: Omit<ProcessStreamOptions, 'after' | 'gapOnEviction'>,
  signal: AbortSignal,
): Promise<ExitEvent> {
  const process = await api.getProcess(options.sandboxId, options.processId, { signal });
  const plan = planAttach(process);
  if (plan.gap !== undefined) options.onEvent?.({ kind: 'gap', ...plan.gap, reason: 'evicted' });
  const stream = new ProcessOutputStream(api, { ...options, after: plan.after, gapOnEviction: true });
  return stream.run(signal);
}
