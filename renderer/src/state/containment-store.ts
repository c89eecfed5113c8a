// Leases this console has seen unproven. A banner never disappears without proof: once a tracked
// lease leaves `unproven`, its notice stays (resolved, with the proof) until the operator dismisses it.
import { create } from 'zustand';
import type { Lease, UnprovenReason } from '../../../shared/domain';

export interface TrackedLease {
  readonly id: string;
  readonly name: string | null;
  readonly reasons: readonly UnprovenReason[];
}

export interface ContainmentState {
  tracked: Readonly<Record<string, TrackedLease>>;
  /** Records every unproven lease (and its latest reasons). */
  track: (leases: readonly Lease[]) => void;
  dismiss: (leaseId: string) => void;
}

function sameReasons(a: readonly UnprovenReason[], b: readonly UnprovenReason[]): boolean {
  return a.length === b.length && a.every((r, i) => r.at === b[i]?.at && r.call === b[i]?.call);
}

export const useContainmentStore = create<ContainmentState>()((set) => ({
  tracked: {},
  track: (leases) =>
    set((state) => {
      let next: Record<string, TrackedLease> | null = null;
      for (const lease of leases) {
        if (lease.verdict.status !== 'unproven') continue;
        const known = state.tracked[lease.id];
        if (known && known.name === lease.name && sameReasons(known.reasons, lease.verdict.reasons)) continue;
        next ??= { ...state.tracked };
        next[lease.id] = { id: lease.id, name: lease.name, reasons: lease.verdict.reasons };
      }
      return next ? { tracked: next } : state;
    }),
  dismiss: (leaseId) =>
    set((state) => {
      const { [leaseId]: _dismissed, ...rest } = state.tracked;
      return { tracked: rest };
    }),
}));
