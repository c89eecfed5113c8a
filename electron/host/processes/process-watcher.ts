// Follows the output of processes the console did not start itself (or found after a restart):
// attaches from seq 0 when the journal still holds it, otherwise from the oldest retained frame
// with an explicit gap. A stream that ends without an exit status makes the lease unproven.
import type { CreateosApi } from '../createos/api';
import { attachProcessOutput, ProcessOutputStream } from '../createos/process-stream';
import type { LeaseStore } from '../state/lease-store';
import { streamEventSink } from './stream-sink';
import { beingDestroyed, recordTreeOutcome } from './tree-check';

export class ProcessWatcher {
  /** key leaseId/processId → controller; also holds processes owned by a command run. */
  private readonly active = new Map<string, AbortController>();
  private readonly finished = new Set<string>();
  /** Leases on which a command is creating a process: what discovery lists meanwhile may be its own. */
  private readonly creating = new Map<string, number>();

  constructor(private readonly api: CreateosApi, private readonly store: LeaseStore, private readonly now: () => number = Date.now) {}

  private key(leaseId: string, processId: string): string {
    return `${leaseId}/${processId}`;
  }

  /** A command run owns this process's stream: never attach a second reader. */
  claim(leaseId: string, processId: string): AbortController {
    const controller = new AbortController();
    this.active.set(this.key(leaseId, processId), controller);
    return controller;
  }

  /**
   * A command is creating a process on this lease. Until the returned function is called (after the
   * command claimed its process, or failed to create one), follow() leaves the lease's new processes
   * alone: discovery can list a process before the create reply reaches its creator. One that nobody
   * claims (a lost create reply) is followed by the next discovery.
   */
  creatingOn(leaseId: string): () => void {
    this.creating.set(leaseId, (this.creating.get(leaseId) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.creating.get(leaseId) ?? 1) - 1;
      if (left > 0) this.creating.set(leaseId, left);
      else this.creating.delete(leaseId);
    };
  }

  release(leaseId: string, processId: string): void {
    const key = this.key(leaseId, processId);
    this.active.delete(key);
    this.finished.add(key);
  }

  /** Follows a process again after its command run gave up on it (a tree that outlived its cleanup). */
  followAgain(leaseId: string, processId: string): void {
    this.finished.delete(this.key(leaseId, processId));
    this.follow(leaseId, processId);
  }

  isFollowing(leaseId: string, processId: string): boolean {
    const key = this.key(leaseId, processId);
    return this.active.has(key) || this.finished.has(key);
  }

  /**
   * Follows a process's output. After a restart the tail already holds what the journal kept:
   * a finished tail is left alone, and an unfinished one resumes after its last sequence.
   */
  follow(leaseId: string, processId: string): void {
    if (this.isFollowing(leaseId, processId) || this.creating.has(leaseId)) return;
    const tail = this.store.tail(leaseId, processId);
    if (tail.hasExit) {
      this.finished.add(this.key(leaseId, processId));
      // The console stopped between the exit and the tree check: ask again, or the lease stays pending.
      if (!this.treeCheckRecorded(leaseId, processId)) void recordTreeOutcome(this.api, this.store, leaseId, processId, this.now);
      return;
    }
    const controller = this.claim(leaseId, processId);
    const sink = streamEventSink(this.store, leaseId, processId, this.now);
    // Once following stops (the lease is gone), nothing more is recorded, even data already buffered.
    const onEvent: typeof sink = (event) => {
      if (!controller.signal.aborted) sink(event);
    };
    this.store.update(leaseId, (r) => r.updateStream(processId, () => ({ attached: true })));
    const options = { sandboxId: leaseId, processId, onEvent };
    const reading = tail.lastSeq > 0
      ? new ProcessOutputStream(this.api, { ...options, after: tail.lastSeq, gapOnEviction: true }).run(controller.signal)
      : attachProcessOutput(this.api, options, controller.signal);
    void reading
      .then(() => recordTreeOutcome(this.api, this.store, leaseId, processId, this.now))
      .catch((error: unknown) => {
        if (controller.signal.aborted || beingDestroyed(this.store, leaseId)) return;
        const reply = error instanceof Error ? error.message : 'stream failed';
        const at = this.now();
        this.store.tail(leaseId, processId).append({ kind: 'gap', lostBytes: null, reason: `stream ended without an exit status: ${reply}`, at });
        this.store.update(leaseId, (record) => {
          record.updateStream(processId, () => ({ attached: false, endedWithoutExit: reply }));
          record.addEvidence({ kind: 'process-unproven', at, processId, reason: 'The output stream ended without an exit status.', call: `GET /v1/sandboxes/${leaseId}/processes/${processId}/connect`, reply });
        });
      })
      .finally(() => this.release(leaseId, processId));
  }

  private treeCheckRecorded(leaseId: string, processId: string): boolean {
    return this.store.record(leaseId).evidence.some((e) => (e.kind === 'tree-exit-proven' || e.kind === 'process-unproven') && e.processId === processId);
  }

  /** Stops every stream of a lease (it is being destroyed or is gone). */
  stopLease(leaseId: string): void {
    for (const [key, controller] of this.active) {
      if (key.startsWith(`${leaseId}/`)) controller.abort();
    }
  }

  dispose(): void {
    for (const controller of this.active.values()) controller.abort();
    this.active.clear();
  }
}
