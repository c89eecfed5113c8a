// "New lease" and "Refresh": one mutation each, shared by the toolbar and the command palette.
import { useMutation } from '@tanstack/react-query';
import { useConsoleClient } from '../../api/client-context';
import { useUiStore } from '../../state/ui-store';

export function useLeaseActions() {
  const client = useConsoleClient();
  const selectLease = useUiStore((s) => s.selectLease);
  const create = useMutation({ mutationFn: () => client.leases.create({}), onSuccess: (lease) => selectLease(lease.id) });
  const refresh = useMutation({ mutationFn: () => client.leases.refresh() });
  return { create, refresh };
}

export type LeaseActions = ReturnType<typeof useLeaseActions>;
