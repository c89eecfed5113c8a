// A lease that was unproven and is no longer: the proof stays on screen until dismissed.
import type { Lease } from '../../../../shared/domain';
import type { TrackedLease } from '../../state/containment-store';
import { leaseLabel } from '../format';
import { resolutionText } from './banner-items';
import { EvidenceList } from './EvidenceList';

export function ResolvedNotice({ lease, onDismiss }: { lease: Lease; onDismiss: (leaseId: string) => void }) {
  return (
    <div role="status" className="banner banner-resolved" aria-label={`Containment resolved: ${leaseLabel(lease)}`}>
      <div className="banner-head"><strong>Containment resolved</strong> <span className="lease-name">{leaseLabel(lease)}</span></div>
      <p className="proof">{resolutionText(lease)}</p>
      <button type="button" onClick={() => onDismiss(lease.id)}>Dismiss</button>
    </div>
  );
}

export function VanishedNotice({ tracked, onDismiss }: { tracked: TrackedLease; onDismiss: (leaseId: string) => void }) {
  return (
    <div role="alert" className="banner banner-unproven" aria-label={`Containment unproven: ${leaseLabel(tracked)}`}>
      <div className="banner-head"><strong>Containment unproven</strong> <span className="lease-name">{leaseLabel(tracked)}</span></div>
      <p>The host no longer lists this lease, and no proof that its processes are gone was received.</p>
      <EvidenceList reasons={tracked.reasons} />
      <button type="button" onClick={() => onDismiss(tracked.id)}>Dismiss</button>
    </div>
  );
}
