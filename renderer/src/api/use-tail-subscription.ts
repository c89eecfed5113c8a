// Follows one process's output: the host's replay first, then live batches, written into the tail
// store at most every 30 ms (so a burst of small batches costs one render). Re-subscribes after a
// dropped connection; the replay that follows starts the lines afresh.
import { useEffect, useState } from 'react';
import type { TailEntry } from '../../../shared/domain';
import { useTailStore } from '../state/tail-store';
import { useConsoleClient } from './client-context';
import { errorMessage } from './error-message';

export type TailSubscriptionStatus =
  | { readonly state: 'connecting' }
  | { readonly state: 'live' }
  | { readonly state: 'retrying'; readonly error: string };

const flushDelayMs = 30;
const retryDelayMs = 1000;

export function useTailSubscription(leaseId: string, processId: string, key: string): TailSubscriptionStatus {
  const client = useConsoleClient();
  const replace = useTailStore((s) => s.replace);
  const append = useTailStore((s) => s.append);
  const remove = useTailStore((s) => s.remove);
  const [status, setStatus] = useState<TailSubscriptionStatus>({ state: 'connecting' });

  useEffect(() => {
    const controller = new AbortController();
    let pending: TailEntry[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = (): void => {
      flushTimer = undefined;
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      append(key, batch);
    };

    const run = async (): Promise<void> => {
      try {
        const events = await client.processes.tail({ leaseId, processId }, { signal: controller.signal });
        for await (const event of events) {
          if (event.type === 'replay') {
            clearTimeout(flushTimer);
            flushTimer = undefined;
            pending = [];
            replace(key, event.entries);
            setStatus({ state: 'live' });
          } else {
            for (const entry of event.entries) pending.push(entry);
            flushTimer ??= setTimeout(flush, flushDelayMs);
          }
        }
        if (controller.signal.aborted) return;
        setStatus({ state: 'retrying', error: 'The output stream ended.' });
      } catch (error) {
        if (controller.signal.aborted) return;
        setStatus({ state: 'retrying', error: errorMessage(error) });
      }
      flush();
      retryTimer = setTimeout(() => void run(), retryDelayMs);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(flushTimer);
      clearTimeout(retryTimer);
      remove(key);
    };
  }, [client, leaseId, processId, key, replace, append, remove]);

  return status;
}
