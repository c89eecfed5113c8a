// Small formatting helpers shared by the views.
import type { Lease } from '../../../shared/domain';

export function formatAge(fromMs: number | null, nowMs: number): string {
  if (fromMs === null) return '—';
  const seconds = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
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

export function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}
