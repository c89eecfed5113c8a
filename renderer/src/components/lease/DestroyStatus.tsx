// A lease's destroy, as the host reports it: progress ("Destroying… 12 s"), proof, or the failure
// with a retry (same reason as the first attempt).
import { useMutation } from '@tanstack/react-query';
import type { Lease } from '../../../../shared/domain';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { describeDestroy } from '../format';
import { useNow } from '../use-now';

export function DestroyStatus({ lease }: { lease: Lease }) {
  const client = useConsoleClient();
  const destroy = lease.destroy;
  const now = useNow(1000, destroy?.state === 'destroying');
  const retry = useMutation({ mutationFn: (reason: string) => client.leases.destroy({ leaseId: lease.id, reason }) });
  if (!destroy) return null;
  return (
    <div className={`destroy-box destroy-${destroy.state}`}>
      <p role="status" className="destroy-status">{describeDestroy(destroy, now)}</p>
      <p className="muted destroy-meta">
        Requested by {destroy.requestedBy}: “{destroy.reason}” · attempts {destroy.attempts}
      </p>
      {destroy.state === 'failed' && (
        <button type="button" className="danger" disabled={retry.isPending} onClick={() => retry.mutate(destroy.reason || 'Retry after a failed destroy')}>
          Retry destroy
        </button>
      )}
      {retry.error && destroy.state !== 'destroying' && <p role="alert" className="error">Retry failed: {errorMessage(retry.error)}</p>}
    </div>
  );
}
