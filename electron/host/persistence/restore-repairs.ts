// What a restart changes in a restored lease: no destroy runs any more, records the journal
// dropped are unproven, and a lease that cannot be proven contained accepts no new work. Each
// repair is journaled by the caller, so a later restart neither repeats nor loses it.
import type { LeaseRecord } from '../state/lease-record';
import type { DroppedMarker } from './journal-records';

export const interruptedDestroyReason = 'The destroy was interrupted when the console stopped; destroy the lease again.';
export const droppedRecordsReason = 'The console journal dropped records while its write buffer was full; evidence or output of this lease may be missing.';
const droppedRecordsCall = 'journal append';

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

export function describeDropped(marker: DroppedMarker): string {
  return `${marker.records} record(s) (${marker.bytes} bytes) dropped between ${isoTime(marker.from)} and ${isoTime(marker.to)}`;
}

/** A destroy left `destroying` cannot still run after a restart: it becomes a failed destroy. */
export function settleInterruptedDestroy(record: LeaseRecord, at: number): void {
  const destroy = record.destroy;
  if (destroy?.state !== 'destroying' || record.gone) return;
  record.destroy = { ...destroy, state: 'failed', finishedAt: at, error: interruptedDestroyReason };
  record.addEvidence({
    kind: 'destroy-failed',
    at,
    reason: interruptedDestroyReason,
    call: `DELETE /v1/sandboxes/${record.sandbox.id}`,
    reply: 'no reply: the console stopped before the provider confirmed the sandbox gone',
  });
}

/**
 * Records the journal dropped cannot be pinned on a lease, so every lease not confirmed gone gets
 * `lease-unproven` evidence (once per marker: a marker already noted is not noted again).
 */
export function noteDroppedRecords(record: LeaseRecord, markers: readonly DroppedMarker[], at: number): void {
  if (record.gone) return;
  for (const marker of markers) {
    const reply = `write buffer full: ${describeDropped(marker)}`;
    const noted = record.evidence.some((e) => e.kind === 'lease-unproven' && e.call === droppedRecordsCall && e.reply === reply);
    if (!noted) record.addEvidence({ kind: 'lease-unproven', at, reason: droppedRecordsReason, call: droppedRecordsCall, reply });
  }
}

/** Fail closed: a lease marked unconfirmed, or whose verdict is unproven, comes back unconfirmed. */
export function restoredUnconfirmed(record: LeaseRecord, marked: boolean): boolean {
  return marked || record.toLease().verdict.status === 'unproven';
}
