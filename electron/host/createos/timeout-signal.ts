// A timeout signal that fires even when only AbortSignal.any() holds it. Before Node 24, a timeout
// signal with no listener of its own can be garbage-collected while the composite built from it
// still waits, and then never aborts (nodejs/node#57736): a command's deadline would silently vanish.
// An abort listener makes Node keep the signal alive until it fires.
export function timeoutSignal(ms: number): AbortSignal {
  const signal = AbortSignal.timeout(ms);
  signal.addEventListener('abort', () => undefined, { once: true });
  return signal;
}
