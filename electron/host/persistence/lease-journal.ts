// Makes the lease store durable: every change is appended to the journal, and at start the
// journal is replayed into a fresh store. A console killed with SIGKILL comes back with every
// lease, its evidence (so every unproven verdict), its timeline and its output tails.
import type { GuardState, TailEntry } from '../../../shared/domain';
import { Journal, type JournalRecord } from '../journal';
import { LeaseRecord } from '../state/lease-record';
import type { LeaseStore, StorePersistence } from '../state/lease-store';
import { recordDataSchemas, recordTypes, type LeaseSnapshotData, type LeaseStateData } from './journal-records';

interface Persisted {
  state: string;
  evidence: number;
  timelineTotal: number;
  processes: Map<string, string>;
}

export interface RestoreReport {
  leases: number;
  records: number;
  skipped: string[];
  /** Leases whose cleanup was unconfirmed when the console stopped. */
  unconfirmed: string[];
}

function stateOf(record: LeaseRecord): LeaseStateData {
  return { sandbox: record.sandbox, destroy: record.destroy, gone: record.gone, guard: record.guard, marker: record.marker };
}

export class LeaseJournal implements StorePersistence {
  private readonly persisted = new Map<string, Persisted>();

  /** The store being journaled: set by restoreInto(), snapshotted by compaction. */
  private store: LeaseStore | null = null;

  private constructor(readonly journal: Journal, private readonly now: () => number) {}

  static async open(dir: string, options: { onProblem: (problem: string) => void; maxBytes?: number; now?: () => number }): Promise<LeaseJournal> {
    const holder: { self: LeaseJournal | null } = { self: null };
    const journal = await Journal.open(dir, {
      onCorrupt: (problem) => options.onProblem(`journal: ${problem}`),
      onError: (error) => options.onProblem(`journal: ${error.message}`),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      // Compaction replaces every older record with a snapshot of the current state.
      autoCompact: () => (holder.self?.store ? { keep: () => false, snapshot: holder.self.snapshot(holder.self.store) } : { keep: () => true }),
    });
    holder.self = new LeaseJournal(journal, options.now ?? Date.now);
    return holder.self;
  }

  recordChanged(record: LeaseRecord): void {
    const leaseId = record.sandbox.id;
    const seen = this.persisted.get(leaseId) ?? { state: '', evidence: 0, timelineTotal: 0, processes: new Map<string, string>() };
    this.persisted.set(leaseId, seen);
    const t = this.now();
    const state = JSON.stringify(stateOf(record));
    if (state !== seen.state) {
      seen.state = state;
      this.append({ t, type: recordTypes.state, leaseId, data: stateOf(record) });
    }
    for (const item of record.evidence.slice(seen.evidence)) this.append({ t, type: recordTypes.evidence, leaseId, data: item });
    seen.evidence = record.evidence.length;
    const newTimeline = Math.min(record.timelineTotal - seen.timelineTotal, record.timeline.length);
    if (newTimeline > 0) for (const entry of record.timeline.slice(-newTimeline)) this.append({ t, type: recordTypes.timeline, leaseId, data: entry });
    seen.timelineTotal = record.timelineTotal;
    for (const process of record.processes.values()) {
      const json = JSON.stringify(process);
      if (seen.processes.get(process.processId) === json) continue;
      seen.processes.set(process.processId, json);
      this.append({ t, type: recordTypes.process, leaseId, data: process });
    }
  }

  tailEntries(leaseId: string, processId: string, entries: TailEntry[]): void {
    this.append({ t: this.now(), type: recordTypes.tail, leaseId, data: { processId, entries } });
  }

  cleared(leaseId: string): void {
    this.persisted.delete(leaseId);
    this.append({ t: this.now(), type: recordTypes.cleared, leaseId, data: null });
  }

  private append(record: JournalRecord): void {
    this.journal.append(record);
  }

  /** Replays the journal into an empty store. Malformed records are reported and skipped. */
  async restoreInto(store: LeaseStore): Promise<RestoreReport> {
    this.store = store;
    const records = new Map<string, LeaseRecord>();
    const tails = new Map<string, Map<string, TailEntry[]>>();
    const guards = new Map<string, GuardState>();
    const report: RestoreReport = { leases: 0, records: 0, skipped: [], unconfirmed: [] };
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
      guards.set(leaseId, state.guard);
    };

    for await (const raw of this.journal.replay()) {
      report.records += 1;
      const leaseId = raw.leaseId;
      const schema = (recordDataSchemas as Record<string, { safeParse: (v: unknown) => { success: boolean; data?: unknown } } | undefined>)[raw.type];
      const parsed = schema?.safeParse(raw.data);
      if (!leaseId || !schema || !parsed?.success) {
        if (raw.type.startsWith('journal.')) continue;
        report.skipped.push(`record ${report.records} (${raw.type}) is malformed and was skipped`);
        continue;
      }
      const data = parsed.data;
      switch (raw.type) {
        case recordTypes.state: applyState(recordFor(leaseId, data as LeaseStateData), data as LeaseStateData, leaseId); break;
        case recordTypes.evidence: recordFor(leaseId).evidence.push(data as LeaseRecord['evidence'][number]); break;
        case recordTypes.timeline: { const r = recordFor(leaseId); r.timeline.push(data as LeaseRecord['timeline'][number]); r.timelineTotal += 1; break; }
        case recordTypes.process: { const p = data as Parameters<LeaseRecord['processes']['set']>[1]; recordFor(leaseId).processes.set(p.processId, p); break; }
        case recordTypes.tail: { const d = data as { processId: string; entries: TailEntry[] }; tailFor(leaseId, d.processId).push(...d.entries); break; }
        case recordTypes.cleared: records.delete(leaseId); tails.delete(leaseId); break;
        case recordTypes.snapshot: {
          const snap = data as LeaseSnapshotData;
          const record = new LeaseRecord(snap.state.sandbox);
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

    for (const [leaseId, record] of records) {
      // Streams are not attached after a restart until discovery re-attaches them.
      for (const [pid, p] of record.processes) record.processes.set(pid, { ...p, stream: { ...p.stream, attached: false } });
      const guard = guards.get(leaseId) ?? 'idle';
      record.guard = guard === 'unconfirmedCleanup' ? 'unconfirmedCleanup' : 'idle';
      if (guard === 'unconfirmedCleanup') report.unconfirmed.push(leaseId);
      store.restore(record);
      for (const [processId, entries] of tails.get(leaseId) ?? []) store.tail(leaseId, processId).restore(entries);
      this.persisted.set(leaseId, {
        state: JSON.stringify(stateOf(record)),
        evidence: record.evidence.length,
        timelineTotal: record.timelineTotal,
        processes: new Map([...record.processes.values()].map((p) => [p.processId, JSON.stringify(p)])),
      });
    }
    report.leases = records.size;
    return report;
  }

  /** The whole current state as snapshot records (for compaction). */
  snapshot(store: LeaseStore): JournalRecord[] {
    const t = this.now();
    return store.allRecords().map((record) => ({
      t,
      type: recordTypes.snapshot,
      leaseId: record.sandbox.id,
      data: {
        state: stateOf(record),
        evidence: record.evidence,
        timeline: record.timeline,
        processes: [...record.processes.values()],
        tails: [...store.tailsOf(record.sandbox.id)].map(([processId, tail]) => ({ processId, entries: tail.snapshot() })),
      },
    }));
  }

  flush(): Promise<void> {
    return this.journal.flush();
  }

  dispose(): Promise<void> {
    return this.journal.dispose();
  }
}
