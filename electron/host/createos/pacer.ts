// Request pacing (§5): one FIFO per API origin, request starts at least 300 ms apart across every
// lease and client of the host; a 429's Retry-After holds back every later start to that origin.
import { createHash } from 'node:crypto';

export const DEFAULT_PACE_INTERVAL_MS = 300;

export interface PacerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: PacerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

export interface RequestPacerOptions {
  readonly intervalMs?: number;
  readonly clock?: PacerClock;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (reason: Error) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export type QueueListener = (queued: number) => void;

export class RequestPacer {
  private readonly intervalMs: number;
  private readonly clock: PacerClock;
  private readonly waiters: Waiter[] = [];
  private readonly listeners = new Set<QueueListener>();
  private nextStartAt = Number.NEGATIVE_INFINITY;
  private timer: unknown = undefined;
  private disposed = false;

  constructor(options: RequestPacerOptions = {}) {
    this.intervalMs = options.intervalMs ?? DEFAULT_PACE_INTERVAL_MS;
    this.clock = options.clock ?? systemClock;
  }

  /** Requests waiting for their turn (not counting ones already started). */
  get queued(): number {
    return this.waiters.length;
  }

  /** Called with the queue length whenever it changes. Returns an unsubscribe function. */
  subscribe(listener: QueueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when the caller may start its request. Rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('Request pacer is disposed.'));
    if (signal?.aborted === true) return Promise.reject(abortReason(signal));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.waiters.indexOf(waiter);
          if (index === -1) return;
          this.waiters.splice(index, 1);
          this.notify();
          reject(abortReason(signal));
          // The head may have changed: re-arm the timer for whoever is first now.
          this.rearm();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      this.notify();
      this.pump();
    });
  }

  /** No request starts before `now + ms` (a 429's Retry-After). */
  holdFor(ms: number): void {
    if (!(ms > 0)) return;
    this.nextStartAt = Math.max(this.nextStartAt, this.clock.now() + ms);
    this.rearm();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clearTimer();
    const pending = this.waiters.splice(0);
    for (const waiter of pending) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new Error('Request pacer is disposed.'));
    }
    if (pending.length > 0) this.notify();
    this.listeners.clear();
  }

  private rearm(): void {
    this.clearTimer();
    this.pump();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private pump(): void {
    if (this.disposed || this.timer !== undefined) return;
    const head = this.waiters[0];
    if (head === undefined) return;
    const now = this.clock.now();
    if (now >= this.nextStartAt) {
      this.waiters.shift();
      head.signal?.removeEventListener('abort', head.onAbort);
      this.nextStartAt = now + this.intervalMs;
      this.notify();
      head.resolve();
      // The next waiter (if any) now waits for a full interval.
      this.pump();
      return;
    }
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, this.nextStartAt - now);
  }

  private notify(): void {
    const queued = this.waiters.length;
    for (const listener of this.listeners) {
      try {
        listener(queued);
      } catch {
        // A listener's failure must not stall the queue.
      }
    }
  }
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/** sha256 of the origin: the registry never keeps the URL itself as a key. */
export function pacerKey(origin: string): string {
  return createHash('sha256').update(origin).digest('hex');
}

/** Pacers by origin. The host uses the process-wide `sharedPacers`; tests build their own. */
export class PacerRegistry {
  private readonly pacers = new Map<string, RequestPacer>();

  constructor(private readonly options: RequestPacerOptions = {}) {}

  forOrigin(origin: string): RequestPacer {
    const key = pacerKey(origin);
    let pacer = this.pacers.get(key);
    if (pacer === undefined) {
      pacer = new RequestPacer(this.options);
      this.pacers.set(key, pacer);
    }
    return pacer;
  }

  /** Total queued requests across origins. */
  get queued(): number {
    let total = 0;
    for (const pacer of this.pacers.values()) total += pacer.queued;
    return total;
  }

  dispose(): void {
    for (const pacer of this.pacers.values()) pacer.dispose();
    this.pacers.clear();
  }
}

export const sharedPacers = new PacerRegistry();

/**
 * Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `now`.
 * Missing or unparsable values give `fallbackMs`; the result is capped at `maxMs`.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number, fallbackMs = 1_000, maxMs = 60_000): number {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return fallbackMs;
  const text = raw.trim();
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * 1_000;
  } else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return fallbackMs;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), maxMs);
}
