// Query factories: each keeps its key and its fetcher together. Never write a key by hand elsewhere.
import { queryOptions } from '@tanstack/react-query';
import type { ConsoleClient } from '../../../shared/contract';

const keys = {
  leases: ['leases'] as const,
  system: ['system', 'info'] as const,
};

export function leasesQuery(client: ConsoleClient) {
  return queryOptions({ queryKey: keys.leases, queryFn: ({ signal }) => client.leases.list(undefined, { signal }), staleTime: Infinity });
}

export function systemInfoQuery(client: ConsoleClient) {
  return queryOptions({ queryKey: keys.system, queryFn: ({ signal }) => client.system.info(undefined, { signal }), refetchInterval: 5_000 });
}
