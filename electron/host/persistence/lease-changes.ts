// Writes one lease's changes to the journal: only what is new since the last accepted append.
// Counters advance only for records the journal accepted, so a record it refused (write buffer
// full) is written again the next time the lease is journaled.
import type { GuardState } from '../../../shared/domain';
import type { JournalRecord } from '../journal';
import type { LeaseRecord } from '../state/lease-record';
import { recordTypes, type LeaseStateData } from './journal-records';

/** What the journal holds of one lease. */
export interface Persisted {
  /** The last state record accepted, as JSON. */
  state: string;
  /** The guard's unconfirmed mark as the store showed it (kept while `closing` hides it). */
  unconfirmed: boolean;
  /** Evidence items accepted (the evidence array only grows). */
  evidence: number;
  /** Timeline entries ever accepted (the timeline array itself is bounded). */
  timelineTotal: number;
  /** Each process as last accepted, as JSON. */
  processes: Map<string, string>;
}

export type Append = (record: JournalRecord) => boolean;

/**
 * The unconfirmed mark after the guard showed `guard`: `unconfirmedCleanup` sets it, `idle` and
 * `busy` mean it is clear, and `closing` hides it, so it stays what it was.
 */
export function nextUnconfirmed(previous: boolean, guard: GuardState): boolean {
  if (guard === 'unconfirmedCleanup') return true;
  if (guard === 'closing') return previous;
  return false;
}

export function stateOf(record: LeaseRecord, unconfirmed: boolean): LeaseStateData {
  return { sandbox: record.sandbox, destroy: record.destroy, gone: record.gone, guard: record.guard, marker: record.marker, unconfirmed };
}

export function freshPersisted(): Persisted {
  return { state: '', unconfirmed: false, evidence: 0, timelineTotal: 0, processes: new Map() };
}

/** A lease as it stands, taken as entirely journaled (after a restore). */
export function persistedOf(record: LeaseRecord, unconfirmed: boolean): Persisted {
  return {
    state: JSON.stringify(stateOf(record, unconfirmed)),
    unconfirmed,
    evidence: record.evidence.length,
    timelineTotal: record.timelineTotal,
    processes: new Map([...record.processes.values()].map((p) => [p.processId, JSON.stringify(p)])),
  };
}

/** Appends what is new in `record`; `false` when the journal refused a record (the rest waits). */
export function journalChanges(record: LeaseRecord, seen: Persisted, t: number, append: Append): boolean {
  const leaseId = record.sandbox.id;
  seen.unconfirmed = nextUnconfirmed(seen.unconfirmed, record.guard);
  const state = stateOf(record, seen.unconfirmed);
  const stateJson = JSON.stringify(state);
  if (stateJson !== seen.state) {
    if (!append({ t, type: recordTypes.state, leaseId, data: state })) return false;
    seen.state = stateJson;
  }
  for (; seen.evidence < record.evidence.length; seen.evidence += 1) {
    if (!append({ t, type: recordTypes.evidence, leaseId, data: record.evidence[seen.evidence] })) return false;
  }
  const fresh = Math.min(record.timelineTotal - seen.timelineTotal, record.timeline.length);
  const entries = fresh > 0 ? record.timeline.slice(-fresh) : [];
  for (const [i, entry] of entries.entries()) {
    if (!append({ t, type: recordTypes.timeline, leaseId, data: entry })) {
      seen.timelineTotal = record.timelineTotal - (entries.length - i);
      return false;
    }
  }
  seen.timelineTotal = record.timelineTotal;
  for (const process of record.processes.values()) {
    const json = JSON.stringify(process);
    if (seen.processes.get(process.processId) === json) continue;
    if (!append({ t, type: recordTypes.process, leaseId, data: process })) return false;
    seen.processes.set(process.processId, json);
  }
  return true;
}
