// Long requests (wait, exec) stop working for a client that went away before its answer.
import type { ServerResponse } from 'node:http';

export interface ClientGone {
  /** Aborts when the connection closes before the response was finished. */
  readonly signal: AbortSignal;
  /** Stops watching; call once the answer is (about to be) written. */
  dispose(): void;
}

export function watchClientGone(res: ServerResponse): ClientGone {
  const ac = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) ac.abort();
  };
  res.once('close', onClose);
  if (res.destroyed) onClose();
  return { signal: ac.signal, dispose: () => res.off('close', onClose) };
}
