// The red "Containment unproven" banner: names the lease, says why, and offers one-click destroy.
import { useMutation } from '@tanstack/react-query';
import type { Lease } from '../../../shared/domain';
import { useConsoleClient } from '../api/client-context';
import { clockTime } from './format';

export function ContainmentBanner({ lease }: { lease: Lease }) {
  const client = useConsoleClient();
  const destroy = useMutation({
    mutationFn: () => client.leases.destroy({ leaseId: lease.id, reason: 'Containment unproven: destroyed from the banner' }),
  });
  const label = lease.name ? `${lease.id} (${lease.name})` : lease.id;
  const destroying = lease.destroy?.state === 'destroying';
  return (
    <div role="alert" className="banner banner-unproven" aria-label={`Containment unproven: ${label}`}>
      <strong>Containment unproven</strong> <span className="lease-name">{label}</span>
      <ul className="evidence">
        {lease.verdict.reasons.map((reason) => (
          <li key={`${reason.at}-${reason.call}`}>
            {reason.reason} <span className="muted">— {reason.call} → {reason.reply} at {clockTime(reason.at)}</span>
          </li>
        ))}
      </ul>
      {lease.destroy?.state === 'failed' && <p className="error">Destroy failed: {lease.destroy.error}</p>}
      {destroy.error && <p className="error">{destroy.error.message}</p>}
      <button type="button" className="danger" disabled={destroying || destroy.isPending} onClick={() => destroy.mutate()}>
        {lease.destroy?.state === 'failed' ? 'Retry destroy' : 'Destroy lease'}
      </button>
    </div>
  );
}

export function ContainmentBanners({ leases }: { leases: readonly Lease[] }) {
  const unproven = leases.filter((lease) => lease.verdict.status === 'unproven');
  if (unproven.length === 0) return null;
  return (
    <section className="banners" aria-label="Unproven leases">
      {unproven.map((lease) => <ContainmentBanner key={lease.id} lease={lease} />)}
    </section>
  );
}
