// Turns push callbacks into an async iterator that ends when the consumer stops or the signal aborts.
// Used by subscription procedures: a listener pushes events, the transport pulls them.

export interface PushQueue<T> extends AsyncIterable<T> {
  push(value: T): void;
  end(): void;
}

export function createPushQueue<T>(signal?: AbortSignal, onClose?: () => void): PushQueue<T> {
  const buffered: T[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  let closed = false;

  const close = (): void => {
    if (closed) return;
    closed = true;
    ended = true;
    onClose?.();
    wake?.();
  };
  signal?.addEventListener('abort', close, { once: true });
  if (signal?.aborted) close();

  async function* iterate(): AsyncGenerator<T> {
    try {
      for (;;) {
        while (buffered.length > 0) yield buffered.shift() as T;
        if (ended) return;
        await new Promise<void>((resolve) => { wake = resolve; });
        wake = null;
      }
    } finally {
      close();
    }
  }

  return {
    push(value) {
      if (ended) return;
      buffered.push(value);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
    [Symbol.asyncIterator]: iterate,
  };
}
