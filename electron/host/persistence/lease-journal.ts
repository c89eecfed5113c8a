// Makes the lease store durable: every change is appended to the journal, and at start the
// journal is replayed into a fresh store. A console killed with SIGKILL comes back with every
// lease, its evidence (so every unproven verdict), its timeline and its output tails.
import type { TailEntry } from '../../../shared/domain';
import { Journal, type CompactionPlan, type CompactionResult, type JournalRecord } from '../journal';
import type { LeaseRecord } from '../state/lease-record';
import type { LeaseStore, StorePersistence } from '../state/lease-store';
import { recordTypes } from './journal-records';
import { freshPersisted, journalChanges, persistedOf, stateOf, type Persisted } from './lease-changes';
import { replayRecords } from './replay-records';
import { describeDropped, noteDroppedRecords, restoredUnconfirmed, settleInterruptedDestroy } from './restore-repairs';

export interface LeaseJournalOptions {
  onProblem: (problem: string) => void;
  maxBytes?: number;
  maxPendingBytes?: number;
  onCompacted?: (result: CompactionResult) => void;
  now?: () => number;
}

export interface RestoreReport {
  leases: number;
  records: number;
  /** Problems met while reading back: malformed records skipped, records the journal had dropped. */
  skipped: string[];
  /** Leases whose cleanup was unconfirmed (or whose verdict is unproven) when the console stopped. */
  unconfirmed: string[];
}

export class LeaseJournal implements StorePersistence {
  private readonly persisted = new Map<string, Persisted>();

  /** Leases with changes the journal refused (write buffer full): written once it accepts appends again. */
  private readonly behind = new Set<string>();

  /** Leases whose removal the journal refused. */
  private readonly uncleared = new Set<string>();

  private catchingUp = false;

  /** The store being journaled: set once restoreInto() has replayed everything, snapshotted by compaction. */
  private store: LeaseStore | null = null;

  private constructor(readonly journal: Journal, private readonly now: () => number) {}

  static async open(dir: string, options: LeaseJournalOptions): Promise<LeaseJournal> {
    const holder: { self: LeaseJournal | null } = { self: null };
    const journal = await Journal.open(dir, {
      onCorrupt: (problem) => options.onProblem(`journal: ${problem}`),
      onError: (error) => options.onProblem(`journal: ${error.message}`),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(options.maxPendingBytes === undefined ? {} : { maxPendingBytes: options.maxPendingBytes }),
      ...(options.onCompacted === undefined ? {} : { onCompacted: options.onCompacted }),
      autoCompact: () => holder.self?.compactionPlan() ?? null,
    });
    holder.self = new LeaseJournal(journal, options.now ?? Date.now);
    return holder.self;
  }

  /**
   * Compaction replaces every older record with a snapshot of the current state; until the replay
   * has filled the store there is no state to snapshot, so there is no compaction ("not now").
   */
  private compactionPlan(): CompactionPlan | null {
    const store = this.store;
    if (!store) return null;
    const snapshot = this.snapshot(store);
    // The snapshot holds every lease as it is, changes the journal refused included: none of them
    // is to be written again after it.
    for (const record of store.allRecords()) {
      const leaseId = record.sandbox.id;
      this.persisted.set(leaseId, persistedOf(record, this.persisted.get(leaseId)?.unconfirmed ?? record.guard === 'unconfirmedCleanup'));
    }
    this.behind.clear();
    this.uncleared.clear();
    return { keep: () => false, snapshot };
  }

  recordChanged(record: LeaseRecord): void {
    const leaseId = record.sandbox.id;
    if (this.writeLease(record)) {
      this.behind.delete(leaseId);
      this.catchUp();
    } else {
      this.behind.add(leaseId);
    }
  }

  tailEntries(leaseId: string, processId: string, entries: TailEntry[]): void {
    // A refused batch is lost output; the journal's dropped marker says so at the next start.
    if (this.journal.append({ t: this.now(), type: recordTypes.tail, leaseId, data: { processId, entries } })) this.catchUp();
  }

  cleared(leaseId: string): void {
    this.persisted.delete(leaseId);
    this.behind.delete(leaseId);
    if (this.appendCleared(leaseId)) {
      this.uncleared.delete(leaseId);
      this.catchUp();
    } else {
      this.uncleared.add(leaseId);
      this.behind.add(leaseId);
    }
  }

  private appendCleared(leaseId: string): boolean {
    return this.journal.append({ t: this.now(), type: recordTypes.cleared, leaseId, data: null });
  }

  /** Journals what is new in one lease (after a removal of the same id that still waits). */
  private writeLease(record: LeaseRecord): boolean {
    const leaseId = record.sandbox.id;
    if (this.uncleared.has(leaseId)) {
      if (!this.appendCleared(leaseId)) return false;
      this.uncleared.delete(leaseId);
    }
    const seen = this.persisted.get(leaseId) ?? freshPersisted();
    this.persisted.set(leaseId, seen);
    return journalChanges(record, seen, this.now(), (r) => this.journal.append(r));
  }

  /** The journal accepted an append: write what it refused before, oldest lease first, until it refuses again. */
  private catchUp(): void {
    if (this.catchingUp || this.behind.size === 0) return;
    this.catchingUp = true;
    try {
      for (const leaseId of [...this.behind]) {
        const record = this.store?.has(leaseId) ? this.store.record(leaseId) : null;
        const done = record ? this.writeLease(record) : !this.uncleared.has(leaseId) || this.appendCleared(leaseId);
        if (!done) return;
        if (!record) this.uncleared.delete(leaseId);
        this.behind.delete(leaseId);
      }
    } finally {
      this.catchingUp = false;
    }
  }

  /** Replays the journal into an empty store. Malformed records are reported and skipped. */
  async restoreInto(store: LeaseStore): Promise<RestoreReport> {
    const replayed = await replayRecords(this.journal.replay());
    const report: RestoreReport = { leases: replayed.records.size, records: replayed.count, skipped: replayed.skipped, unconfirmed: [] };
    for (const marker of replayed.dropped) {
      report.skipped.push(`the journal dropped ${describeDropped(marker)} (write buffer full); every open lease is marked unproven`);
    }
    const at = this.now();
    for (const [leaseId, record] of replayed.records) {
      // Streams are not attached after a restart until discovery re-attaches them.
      for (const [pid, p] of record.processes) record.processes.set(pid, { ...p, stream: { ...p.stream, attached: false } });
      const marked = replayed.unconfirmed.get(leaseId) ?? false;
      // What the journal holds; the repairs below differ from it and are journaled once the store is set.
      this.persisted.set(leaseId, persistedOf(record, marked));
      settleInterruptedDestroy(record, at);
      noteDroppedRecords(record, replayed.dropped, at);
      const unconfirmed = restoredUnconfirmed(record, marked);
      record.guard = unconfirmed ? 'unconfirmedCleanup' : 'idle';
      if (unconfirmed) report.unconfirmed.push(leaseId);
      store.restore(record);
      for (const [processId, entries] of replayed.tails.get(leaseId) ?? []) store.tail(leaseId, processId).restore(entries);
    }
    // Only now may a compaction snapshot the store: it holds everything the journal held.
    this.store = store;
    for (const record of replayed.records.values()) this.recordChanged(record);
    return report;
  }

  /** The whole current state as snapshot records (for compaction). */
  snapshot(store: LeaseStore): JournalRecord[] {
    const t = this.now();
    return store.allRecords().map((record) => {
      const leaseId = record.sandbox.id;
      const tails = [...store.tailsOf(leaseId)].map(([processId, tail]) => {
        // Entries still waiting in the tail's batch are journaled now, before the snapshot holds
        // them, so they are not journaled again after it.
        tail.flush();
        return { processId, entries: tail.snapshot() };
      });
      return {
        t,
        type: recordTypes.snapshot,
        leaseId,
        data: {
          state: stateOf(record, this.persisted.get(leaseId)?.unconfirmed ?? record.guard === 'unconfirmedCleanup'),
          evidence: record.evidence,
          timeline: record.timeline,
          processes: [...record.processes.values()],
          tails,
        },
      };
    });
  }

  flush(): Promise<void> {
    return this.journal.flush();
  }

  dispose(): Promise<void> {
    return this.journal.dispose();
  }
}
