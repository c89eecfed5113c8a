// Small formatting helpers shared by the views.
import type { DestroyProgress, Lease } from '../../../shared/domain';

export function formatAge(fromMs: number | null, nowMs: number): string {
  if (fromMs === null) return '—';
  const seconds = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

export function parseTime(iso: string | null): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

export function verdictLabel(lease: Lease): string {
  switch (lease.verdict.status) {
    case 'unproven': return 'Unproven';
    case 'pending': return 'Pending';
    case 'active': return 'Active';
    case 'contained': return 'Contained';
  }
}

/** What the provider says, or "destroyed" once the console has proof the sandbox is gone. */
export function leaseState(lease: Lease): string {
  return lease.gone ? 'destroyed' : lease.rawStatus;
}

export function leaseLabel(lease: { id: string; name: string | null }): string {
  return lease.name ? `${lease.id} (${lease.name})` : lease.id;
}

export function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

export function dateTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GiB`;
}

export function elapsedSeconds(fromMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - fromMs) / 1000));
}

/** "Destroying… 12 s", "Destroyed: <proof>" or "Destroy failed: <error>". */
export function describeDestroy(destroy: DestroyProgress, nowMs: number): string {
  switch (destroy.state) {
    case 'destroying': return `Destroying… ${elapsedSeconds(destroy.startedAt, nowMs)} s`;
    case 'destroyed': return `Destroyed: ${destroy.proof ?? 'the host confirmed the sandbox is gone'}`;
    case 'failed': return `Destroy failed: ${destroy.error ?? 'no reason given'}`;
  }
}
