// The red "Containment unproven" banner: names the lease, gives the reason and the evidence, and
// destroys it in one click, showing progress ("Destroying… 12 s") and the failure with a retry.
import { useMutation } from '@tanstack/react-query';
import type { Lease, UnprovenReason } from '../../../../shared/domain';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { clockTime, elapsedSeconds, leaseLabel } from '../format';
import { useNow } from '../use-now';
import { EvidenceList } from './EvidenceList';

export const bannerDestroyReason = 'Containment unproven: destroyed from the banner';

export interface ContainmentBannerProps {
  lease: Lease;
  /** What is unproven; the lease's own reasons unless the lease is pending and these are the last seen. */
  reasons?: readonly UnprovenReason[];
  onShow?: (leaseId: string) => void;
}

export function ContainmentBanner({ lease, reasons = lease.verdict.reasons, onShow }: ContainmentBannerProps) {
  const client = useConsoleClient();
  const destroy = useMutation({ mutationFn: () => client.leases.destroy({ leaseId: lease.id, reason: bannerDestroyReason }) });
  const hostDestroying = lease.destroy?.state === 'destroying';
  const destroying = hostDestroying || destroy.isPending;
  const startedAt = hostDestroying && lease.destroy ? lease.destroy.startedAt : destroy.submittedAt;
  const now = useNow(1000, destroying);
  const failed = !destroying && lease.destroy?.state === 'failed';
  const label = leaseLabel(lease);

  return (
    <div role="alert" className="banner banner-unproven" aria-label={`Containment unproven: ${label}`}>
      <div className="banner-head">
        <strong>Containment unproven</strong> <span className="lease-name">{label}</span>
        {lease.verdict.since !== null && <span className="muted"> since {clockTime(lease.verdict.since)}</span>}
      </div>
      <EvidenceList reasons={reasons} />
      {destroying && <p className="destroy-progress" aria-live="off">Destroying… {elapsedSeconds(startedAt || now, now)} s</p>}
      {failed && <p className="error">Destroy failed: {lease.destroy?.error ?? 'no reason given'}</p>}
      {destroy.error && !failed && !destroying && <p className="error">Destroy failed: {errorMessage(destroy.error)}</p>}
      <div className="actions">
        <button type="button" className="danger" disabled={destroying} onClick={() => destroy.mutate()}>
          {failed || destroy.isError ? 'Retry destroy' : 'Destroy lease'}
        </button>
        {onShow && <button type="button" onClick={() => onShow(lease.id)}>Show lease</button>}
      </div>
    </div>
  );
}
