// Which desktop notifications the lease list calls for: a lease that became unproven, and a
// destroy running longer than 30 s. Pure: the caller keeps the memory between calls.
import type { Lease } from '../../../../shared/domain';
import { leaseLabel } from '../format';

export const stuckDestroyMs = 30_000;

export interface LeaseNote {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
}

export interface NotificationMemory {
  /** Unproven lease ids at the last look; null before the first (startup is not news). */
  readonly unproven: ReadonlySet<string> | null;
  /** Destroys already reported as long-running, by lease id and start time. */
  readonly stuck: ReadonlySet<string>;
}

export const initialNotificationMemory: NotificationMemory = { unproven: null, stuck: new Set() };

export function collectNotifications(leases: readonly Lease[], memory: NotificationMemory, now: number): { notes: LeaseNote[]; memory: NotificationMemory } {
  const notes: LeaseNote[] = [];
  const unproven = new Set<string>();
  const stuck = new Set(memory.stuck);
  for (const lease of leases) {
    if (lease.verdict.status === 'unproven') {
      unproven.add(lease.id);
      if (memory.unproven && !memory.unproven.has(lease.id)) {
        const reason = lease.verdict.reasons[0];
        notes.push({ title: `Containment unproven: ${leaseLabel(lease)}`, body: reason ? `${reason.reason} (${reason.call} → ${reason.reply})` : 'The console cannot prove its processes are gone.', tag: `unproven-${lease.id}` });
      }
    }
    const destroy = lease.destroy;
    if (destroy?.state === 'destroying' && now - destroy.startedAt > stuckDestroyMs) {
      const key = `${lease.id}@${destroy.startedAt}`;
      if (!stuck.has(key)) {
        stuck.add(key);
        const seconds = Math.floor((now - destroy.startedAt) / 1000);
        notes.push({ title: `Destroy still running after ${seconds} s: ${leaseLabel(lease)}`, body: `Attempt ${destroy.attempts}; no proof yet that the sandbox is gone.`, tag: `stuck-${lease.id}` });
      }
    }
  }
  return { notes, memory: { unproven, stuck } };
}
