// The time window of an export, as the operator types it (local date and time inputs).
import type { IncidentScope } from '../../../../shared/contract';

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** A local "YYYY-MM-DDTHH:MM" for a datetime-local input. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function windowScope(from: string, to: string): { scope: IncidentScope } | { error: string } {
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) return { error: 'Enter both a start and an end time.' };
  if (fromMs > toMs) return { error: 'The start must not be after the end.' };
  return { scope: { kind: 'window', from: fromMs, to: toMs } };
}
