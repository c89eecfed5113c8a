// A controllable event stream for tests: push values, end it, or fail it; the consumer's abort
// signal ends it like the real transport does.
import { AsyncIteratorClass } from '@orpc/client';

export class AsyncChannel<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T, unknown>) => void) | null = null;
  private failWaiting: ((error: Error) => void) | null = null;
  private ended = false;
  private failure: Error | null = null;
  closed = false;

  constructor(signal?: AbortSignal) {
    signal?.addEventListener('abort', () => this.end());
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.clearWaiters();
      resolve({ done: false, value });
    } else {
      this.queue.push(value);
    }
  }

  end(): void {
    this.ended = true;
    if (this.waiting) {
      const resolve = this.waiting;
      this.clearWaiters();
      resolve({ done: true, value: undefined });
    }
  }

  fail(error: Error): void {
    this.ended = true;
    this.failure = error;
    if (this.failWaiting) {
      const reject = this.failWaiting;
      this.clearWaiters();
      reject(error);
    }
  }

  iterator(): AsyncIteratorClass<T, unknown, void> {
    return new AsyncIteratorClass<T, unknown, void>(
      () => {
        const value = this.queue.shift();
        if (value !== undefined) return Promise.resolve({ done: false, value });
        if (this.failure) return Promise.reject(this.failure);
        if (this.ended) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
      () => {
        this.closed = true;
        this.end();
        return Promise.resolve();
      },
    );
  }

  private clearWaiters(): void {
    this.waiting = null;
    this.failWaiting = null;
  }
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
