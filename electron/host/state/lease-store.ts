// The host's picture of every lease, with change notification. One writer: the host services.
import type { LeaseEvent } from '../../../shared/contract';
import type { Lease, TailEntry } from '../../../shared/domain';
import { HostError } from '../host-error';
import { LeaseRecord, type SandboxFacts } from './lease-record';
import { TailBuffer } from './tail-buffer';

export type LeaseListener = (event: LeaseEvent) => void;

/** Where changes go to survive a crash (the journal). */
export interface StorePersistence {
  recordChanged(record: LeaseRecord): void;
  tailEntries(leaseId: string, processId: string, entries: TailEntry[]): void;
  cleared(leaseId: string): void;
}

export interface LeaseStoreOptions {
  tailBytes?: number;
  /** How long frequent changes of one lease are gathered before they are published. Default 250 ms. */
  coalesceMs?: number;
  persistence?: StorePersistence;
}

export class LeaseStore {
  private readonly records = new Map<string, LeaseRecord>();
  private readonly tails = new Map<string, TailBuffer>();
  private readonly listeners = new Set<LeaseListener>();
  private readonly dirty = new Set<string>();
  private dirtyTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: LeaseStoreOptions = {}) {}

  /**
   * Publishes a lease soon: frequent changes (bytes received while output streams) are coalesced
   * into one publish per lease every `coalesceMs`. Anything that matters at once uses publish().
   */
  publishSoon(leaseId: string): void {
    this.dirty.add(leaseId);
    this.dirtyTimer ??= setTimeout(() => this.flushDirty(), this.options.coalesceMs ?? 250);
  }

  private flushDirty(): void {
    this.dirtyTimer = null;
    const ids = [...this.dirty];
    this.dirty.clear();
    for (const id of ids) {
      const record = this.records.get(id);
      if (record) this.publish(record);
    }
  }

  /** Puts back a record read from the journal, without publishing or journaling it again. */
  restore(record: LeaseRecord): void {
    this.records.set(record.sandbox.id, record);
  }

  /** Every record, for snapshots. */
  allRecords(): LeaseRecord[] {
    return [...this.records.values()];
  }

  /** The tails of one lease, by process id. */
  tailsOf(leaseId: string): Map<string, TailBuffer> {
    const result = new Map<string, TailBuffer>();
    for (const [key, tail] of this.tails) if (key.startsWith(`${leaseId}/`)) result.set(key.slice(leaseId.length + 1), tail);
    return result;
  }

  has(leaseId: string): boolean {
    return this.records.has(leaseId);
  }

  record(leaseId: string): LeaseRecord {
    const record = this.records.get(leaseId);
    if (!record) throw new HostError('NOT_FOUND', `Lease ${leaseId} is not known to this console.`);
    return record;
  }

  ids(): string[] {
    return [...this.records.keys()];
  }

  /** Adds or refreshes a lease from provider facts, then publishes it. */
  upsertSandbox(facts: SandboxFacts): LeaseRecord {
    const existing = this.records.get(facts.id);
    if (existing) {
      if (existing.sandbox.status !== facts.status && !existing.gone) {
        existing.note({ at: Date.now(), kind: 'state', summary: `State ${existing.sandbox.status} → ${facts.status}`, detail: null, actor: null });
      }
      existing.sandbox = { ...existing.sandbox, ...facts };
      this.publish(existing);
      return existing;
    }
    const record = new LeaseRecord(facts);
    record.note({ at: Date.now(), kind: 'state', summary: `Lease discovered in state ${facts.status}`, detail: null, actor: null });
    this.records.set(facts.id, record);
    this.publish(record);
    return record;
  }

  /** Changes one lease and publishes the result. */
  update(leaseId: string, change: (record: LeaseRecord) => void): Lease {
    const record = this.record(leaseId);
    change(record);
    return this.publish(record);
  }

  /** Forgets a lease entirely (only for leases that were never ours to keep). */
  remove(leaseId: string): void {
    if (!this.records.delete(leaseId)) return;
    this.options.persistence?.cleared(leaseId);
    for (const [key, tail] of this.tails) {
      if (key.startsWith(`${leaseId}/`)) {
        tail.dispose();
        this.tails.delete(key);
      }
    }
    for (const listener of this.listeners) listener({ type: 'removed', leaseId });
  }

  tail(leaseId: string, processId: string): TailBuffer {
    const key = `${leaseId}/${processId}`;
    let tail = this.tails.get(key);
    if (!tail) {
      const persistence = this.options.persistence;
      tail = new TailBuffer(this.options.tailBytes, 20, persistence ? (entries) => persistence.tailEntries(leaseId, processId, entries) : null);
      this.tails.set(key, tail);
    }
    return tail;
  }

  list(): Lease[] {
    return [...this.records.values()].map((r) => r.toLease());
  }

  watch(listener: LeaseListener): () => void {
    listener({ type: 'snapshot', leases: this.list() });
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(record: LeaseRecord): Lease {
    this.dirty.delete(record.sandbox.id);
    this.options.persistence?.recordChanged(record);
    const lease = record.toLease();
    for (const listener of this.listeners) listener({ type: 'upsert', lease });
    return lease;
  }

  dispose(): void {
    if (this.dirtyTimer) clearTimeout(this.dirtyTimer);
    this.flushDirty();
    for (const tail of this.tails.values()) tail.dispose();
    this.listeners.clear();
  }
}
