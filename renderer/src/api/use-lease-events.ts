// The one hook that carries pushed lease events into the query cache. Events are applied in
// batches (at most every 50 ms) so a busy host does not re-render the console per event. It
// re-subscribes after a dropped connection; the first event of every subscription is a snapshot.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { LeaseEvent } from '../../../shared/contract';
import type { Lease } from '../../../shared/domain';
import { useUiStore } from '../state/ui-store';
import { applyLeaseEvents } from './apply-lease-event';
import { useConsoleClient } from './client-context';
import { leasesQuery } from './queries';

export function useLeaseEvents(): void {
  const client = useConsoleClient();
  const queryClient = useQueryClient();
  const setLive = useUiStore((s) => s.setLive);

  useEffect(() => {
    const controller = new AbortController();
    const key = leasesQuery(client).queryKey;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pending: LeaseEvent[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = (): void => {
      flushTimer = undefined;
      const batch = pending;
      pending = [];
      if (batch.length === 0) return;
      queryClient.setQueryData<Lease[]>(key, (current) => applyLeaseEvents(current, batch));
      if (batch.some((event) => event.type === 'snapshot')) setLive(true);
    };

    const run = async (): Promise<void> => {
      try {
        const events = await client.leases.watch(undefined, { signal: controller.signal });
        for await (const event of events) {
          pending.push(event);
          if (event.type === 'snapshot') flush();
          else flushTimer ??= setTimeout(flush, 50);
        }
      } catch {
        // The connection dropped: show it, then subscribe again.
      }
      flush();
      setLive(false);
      if (!controller.signal.aborted) retry = setTimeout(() => void run(), 1000);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(retry);
      clearTimeout(flushTimer);
    };
  }, [client, queryClient, setLive]);
}
