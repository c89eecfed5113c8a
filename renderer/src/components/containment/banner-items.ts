// What the banner list at the top shows: every unproven lease (alert), every tracked lease that
// was proven contained (resolved, with its proof), and every tracked lease the host stopped
// listing. A tracked lease that is only `pending` (a destroy in flight, a tree exit not yet proven)
// has no proof yet: it keeps its alert with the reasons last seen.
import type { Lease, UnprovenReason } from '../../../../shared/domain';
import type { TrackedLease } from '../../state/containment-store';

export type BannerItem =
  | { readonly kind: 'unproven'; readonly lease: Lease; readonly reasons: readonly UnprovenReason[] }
  | { readonly kind: 'resolved'; readonly lease: Lease; readonly tracked: TrackedLease }
  | { readonly kind: 'vanished'; readonly tracked: TrackedLease };

export function bannerItems(leases: readonly Lease[], tracked: Readonly<Record<string, TrackedLease>>): BannerItem[] {
  const items: BannerItem[] = [];
  const byId = new Map<string, Lease>();
  for (const lease of leases) {
    byId.set(lease.id, lease);
    if (lease.verdict.status === 'unproven') items.push({ kind: 'unproven', lease, reasons: lease.verdict.reasons });
  }
  items.sort((a, b) => (a.kind === 'unproven' && b.kind === 'unproven' ? (a.lease.verdict.since ?? 0) - (b.lease.verdict.since ?? 0) : 0));
  for (const entry of Object.values(tracked)) {
    const lease = byId.get(entry.id);
    if (!lease) items.push({ kind: 'vanished', tracked: entry });
    else if (lease.verdict.status === 'pending') items.push({ kind: 'unproven', lease, reasons: entry.reasons });
    else if (lease.verdict.status !== 'unproven') items.push({ kind: 'resolved', lease, tracked: entry });
  }
  return items;
}

/** The proof that ended a tracked lease's doubt, as the notice states it. */
export function resolutionText(lease: Lease): string {
  if (lease.destroy?.state === 'destroyed') return `Destroyed: ${lease.destroy.proof ?? 'the host confirmed the sandbox is gone'}`;
  return `Containment proven: the verdict is now ${lease.verdict.status}; every process tree in doubt was proven gone.`;
}
