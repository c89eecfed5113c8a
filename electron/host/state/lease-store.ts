// The host's picture of every lease, with change notification. One writer: the host services.
import type { LeaseEvent } from '../../../shared/contract';
import type { Lease } from '../../../shared/domain';
import { HostError } from '../host-error';
import { LeaseRecord, type SandboxFacts } from './lease-record';
import { TailBuffer } from './tail-buffer';

export type LeaseListener = (event: LeaseEvent) => void;

export class LeaseStore {
  private readonly records = new Map<string, LeaseRecord>();
  private readonly tails = new Map<string, TailBuffer>();
  private readonly listeners = new Set<LeaseListener>();

  constructor(private readonly tailBytes?: number) {}

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
      existing.sandbox = { ...existing.sandbox, ...facts };
      this.publish(existing);
      return existing;
    }
    const record = new LeaseRecord(facts);
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
      tail = new TailBuffer(this.tailBytes);
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
    const lease = record.toLease();
    for (const listener of this.listeners) listener({ type: 'upsert', lease });
    return lease;
  }

  dispose(): void {
    for (const tail of this.tails.values()) tail.dispose();
    this.listeners.clear();
  }
}
