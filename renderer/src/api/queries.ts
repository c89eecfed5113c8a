// Query factories: each keeps its key and its fetcher together. Never write a key by hand elsewhere.
import { queryOptions } from '@tanstack/react-query';
import type { ConsoleClient, IncidentScope } from '../../../shared/contract';

const keys = {
  leases: ['leases'] as const,
  timeline: (leaseId: string) => ['leases', leaseId, 'timeline'] as const,
  system: ['system', 'info'] as const,
  environments: ['settings', 'environments'] as const,
  incidentPreview: (scope: IncidentScope) => ['incidents', 'preview', scope] as const,
};

export function leasesQuery(client: ConsoleClient) {
  return queryOptions({ queryKey: keys.leases, queryFn: ({ signal }) => client.leases.list(undefined, { signal }), staleTime: Infinity });
}

export function leaseTimelineQuery(client: ConsoleClient, leaseId: string) {
  return queryOptions({ queryKey: keys.timeline(leaseId), queryFn: ({ signal }) => client.leases.timeline({ leaseId }, { signal }) });
}

export function systemInfoQuery(client: ConsoleClient) {
  return queryOptions({ queryKey: keys.system, queryFn: ({ signal }) => client.system.info(undefined, { signal }), refetchInterval: 5_000 });
}

export function environmentsQuery(client: ConsoleClient) {
  return queryOptions({ queryKey: keys.environments, queryFn: ({ signal }) => client.settings.environments(undefined, { signal }) });
}

export function incidentPreviewQuery(client: ConsoleClient, scope: IncidentScope) {
  return queryOptions({
    queryKey: keys.incidentPreview(scope),
    queryFn: ({ signal }) => client.incidents.preview({ scope }, { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
