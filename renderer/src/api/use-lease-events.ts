// The one hook that carries pushed lease events into the query cache. It re-subscribes after a
// dropped connection; the first event of every subscription is a full snapshot.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Lease } from '../../../shared/domain';
import { useUiStore } from '../state/ui-store';
import { applyLeaseEvent } from './apply-lease-event';
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

    const run = async (): Promise<void> => {
      try {
        const events = await client.leases.watch(undefined, { signal: controller.signal });
        for await (const event of events) {
          queryClient.setQueryData<Lease[]>(key, (current) => applyLeaseEvent(current, event));
          if (event.type === 'snapshot') setLive(true);
        }
      } catch {
        // The connection dropped: show it, then subscribe again.
      }
      setLive(false);
      if (!controller.signal.aborted) retry = setTimeout(() => void run(), 1000);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(retry);
    };
  }, [client, queryClient, setLive]);
}
