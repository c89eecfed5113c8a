// Reads the journal back into lease records, tails and unconfirmed marks. Malformed records are
// reported and skipped; the journal's own `journal.dropped` markers are collected.
import type { TailEntry } from '../../../shared/domain';
import { DROPPED_RECORD_TYPE, type JournalRecord } from '../journal';
import { LeaseRecord } from '../state/lease-record';
import { nextUnconfirmed } from './lease-changes';
import { droppedMarkerSchema, recordDataSchemas, recordTypes, type DroppedMarker, type LeaseSnapshotData, type LeaseStateData } from './journal-records';

export interface Replayed {
  records: Map<string, LeaseRecord>;
  tails: Map<string, Map<string, TailEntry[]>>;
  /** Per lease, whether its guard's cleanup was unconfirmed when the console stopped. */
  unconfirmed: Map<string, boolean>;
  dropped: DroppedMarker[];
  count: number;
  skipped: string[];
}

type Schema = { safeParse: (value: unknown) => { success: boolean; data?: unknown } };

export async function replayRecords(source: AsyncIterable<JournalRecord>): Promise<Replayed> {
  const out: Replayed = { records: new Map(), tails: new Map(), unconfirmed: new Map(), dropped: [], count: 0, skipped: [] };
  const { records, tails, unconfirmed } = out;
  const recordFor = (leaseId: string, state?: LeaseStateData): LeaseRecord => {
    let record = records.get(leaseId);
    if (!record) {
      record = new LeaseRecord(state?.sandbox ?? { id: leaseId, status: 'unknown' });
      records.set(leaseId, record);
    }
    return record;
  };
  const tailFor = (leaseId: string, processId: string): TailEntry[] => {
    const byProcess = tails.get(leaseId) ?? new Map<string, TailEntry[]>();
    tails.set(leaseId, byProcess);
    const list = byProcess.get(processId) ?? [];
    byProcess.set(processId, list);
    return list;
  };
  const applyState = (record: LeaseRecord, state: LeaseStateData, leaseId: string): void => {
    record.sandbox = state.sandbox;
    record.destroy = state.destroy;
    record.gone = state.gone;
    record.marker = state.marker;
    record.guard = state.guard;
    unconfirmed.set(leaseId, state.unconfirmed ?? nextUnconfirmed(unconfirmed.get(leaseId) ?? false, state.guard));
  };

  for await (const raw of source) {
    out.count += 1;
    if (raw.type === DROPPED_RECORD_TYPE) {
      const marker = droppedMarkerSchema.safeParse(raw.data);
      if (marker.success) out.dropped.push(marker.data);
      else out.skipped.push(`record ${out.count} (${raw.type}) is malformed and was skipped`);
      continue;
    }
    const leaseId = raw.leaseId;
    const schema = (recordDataSchemas as Record<string, Schema | undefined>)[raw.type];
    const parsed = schema?.safeParse(raw.data);
    if (!leaseId || !schema || !parsed?.success) {
      if (raw.type.startsWith('journal.')) continue;
      out.skipped.push(`record ${out.count} (${raw.type}) is malformed and was skipped`);
      continue;
    }
    const data = parsed.data;
    switch (raw.type) {
      case recordTypes.state: applyState(recordFor(leaseId, data as LeaseStateData), data as LeaseStateData, leaseId); break;
      case recordTypes.evidence: recordFor(leaseId).evidence.push(data as LeaseRecord['evidence'][number]); break;
      case recordTypes.timeline: { const r = recordFor(leaseId); r.timeline.push(data as LeaseRecord['timeline'][number]); r.timelineTotal += 1; break; }
      case recordTypes.process: { const p = data as Parameters<LeaseRecord['processes']['set']>[1]; recordFor(leaseId).processes.set(p.processId, p); break; }
      case recordTypes.tail: { const d = data as { processId: string; entries: TailEntry[] }; tailFor(leaseId, d.processId).push(...d.entries); break; }
      case recordTypes.cleared: records.delete(leaseId); tails.delete(leaseId); unconfirmed.delete(leaseId); break;
      case recordTypes.snapshot: {
        const snap = data as LeaseSnapshotData;
        const record = new LeaseRecord(snap.state.sandbox);
        unconfirmed.delete(leaseId);
        applyState(record, snap.state, leaseId);
        record.evidence.push(...snap.evidence);
        record.timeline = [...snap.timeline];
        record.timelineTotal = snap.timeline.length;
        for (const p of snap.processes) record.processes.set(p.processId, p);
        records.set(leaseId, record);
        tails.delete(leaseId);
        for (const t of snap.tails) tailFor(leaseId, t.processId).push(...t.entries);
        break;
      }
    }
  }
  return out;
}
