// Discovery: lists every sandbox of the account and the processes in each, on a cadence within the
// rate limit and on demand, and starts following output the console is not already reading. A lease
// whose process list fails is noted and skipped; the others are still refreshed. A lease confirmed
// gone that is listed again is tracked again and becomes unproven: its proof of destruction was wrong.
import type { CreateosApi } from '../createos/api';
import { CreateosError } from '../createos/errors';
import type { ProcessWatcher } from '../processes/process-watcher';
import type { LeaseStore } from '../state/lease-store';

export interface DiscoveryOptions {
  api: CreateosApi;
  store: LeaseStore;
  watcher: ProcessWatcher;
  intervalMs?: number;
  onError?: (message: string) => void;
  now?: () => number;
}

const liveStatuses = new Set(['running', 'pausing', 'paused', 'resuming', 'forking', 'creating']);

export class Discovery {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private disposed = false;
  private readonly now: () => number;
  /** The last process-list failure noted per lease, so a failure that persists is noted once. */
  private readonly processListFailures = new Map<string, string>();

  constructor(private readonly options: DiscoveryOptions) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.schedule(0);
  }

  /** Refreshes now (joins a refresh already under way). Returns how many leases are known. */
  refresh(): Promise<number> {
    this.running ??= this.cycle().finally(() => { this.running = null; });
    return this.running;
  }

  private schedule(delay: number): void {
    if (this.disposed) return;
    this.timer = setTimeout(() => {
      this.refresh()
        .catch((error: unknown) => this.options.onError?.(error instanceof Error ? error.message : 'refresh failed'))
        .finally(() => this.schedule(this.options.intervalMs ?? 5000));
    }, delay);
  }

  private async cycle(): Promise<number> {
    const { api, store } = this.options;
    const sandboxes = await api.listSandboxes();
    const listed = new Set<string>();
    for (const view of sandboxes) {
      if (view.status === 'destroyed' && !store.has(view.id)) continue;
      listed.add(view.id);
      if (view.status !== 'destroyed' && store.has(view.id) && store.record(view.id).gone) this.listedAgain(view.id, view.status);
      const record = store.upsertSandbox({ id: view.id, status: view.status, name: view.name, shape: view.shape, created_at: view.created_at });
      if (record.gone || !liveStatuses.has(view.status)) continue;
      try {
        await this.refreshProcesses(view.id);
        this.processListFailures.delete(view.id);
      } catch (error) {
        this.processListFailed(view.id, error);
      }
    }
    for (const id of store.ids()) {
      const record = store.record(id);
      if (!listed.has(id) && !record.gone && record.destroy?.state !== 'destroying') await this.confirmVanished(id);
    }
    return store.ids().length;
  }

  private async refreshProcesses(leaseId: string): Promise<void> {
    const { api, store, watcher } = this.options;
    let processes;
    try {
      processes = await api.listProcesses(leaseId);
    } catch (error) {
      if (error instanceof CreateosError && error.status === 404) return;
      throw error;
    }
    store.update(leaseId, (record) => {
      for (const facts of processes) {
        const known = record.processes.get(facts.process_id);
        record.upsertProcess(leaseId, facts);
        if (!known) record.addEvidence({ kind: 'process-started', at: this.now(), processId: facts.process_id });
      }
    });
    for (const facts of processes) watcher.follow(leaseId, facts.process_id);
  }

  /**
   * A process list failed (5xx, 429, 409 on a paused sandbox, …): noted on the lease's timeline and
   * reported, once while the same failure persists. Nothing is proven or lost by it.
   */
  private processListFailed(leaseId: string, error: unknown): void {
    const message = error instanceof Error ? error.message : 'listing processes failed';
    if (this.processListFailures.get(leaseId) === message) return;
    this.processListFailures.set(leaseId, message);
    const at = this.now();
    this.options.store.update(leaseId, (record) => record.note({
      at, kind: 'error', summary: 'Listing processes failed', detail: `GET /v1/sandboxes/${leaseId}/processes → ${message}`, actor: null,
    }));
    this.options.onError?.(message);
  }

  /** A lease confirmed gone is listed again, not destroyed: its proof was wrong; track it again. */
  private listedAgain(leaseId: string, status: string): void {
    const at = this.now();
    this.options.store.update(leaseId, (record) => {
      record.gone = false;
      record.addEvidence({
        kind: 'lease-unproven', at, reason: 'The sandbox was confirmed gone but is listed again.', call: 'GET /v1/sandboxes', reply: `listed with status ${status}`,
      });
    });
  }

  /** A lease we knew is no longer listed: ask for it; only a 404 or `destroyed` marks it gone. */
  private async confirmVanished(leaseId: string): Promise<void> {
    const { api, store, watcher } = this.options;
    let answer: string;
    try {
      const view = await api.getSandbox(leaseId);
      store.upsertSandbox({ id: view.id, status: view.status });
      if (view.status !== 'destroyed') return;
      answer = 'answered status destroyed';
    } catch (error) {
      if (!(error instanceof CreateosError && error.status === 404)) return;
      answer = 'answered 404';
    }
    watcher.stopLease(leaseId);
    this.processListFailures.delete(leaseId);
    const at = this.now();
    store.update(leaseId, (record) => {
      record.gone = true;
      record.addEvidence({ kind: 'destroy-confirmed', at, proof: `sandbox no longer listed; GET /v1/sandboxes/${leaseId} ${answer} at ${new Date(at).toISOString().slice(11, 19)}` });
    });
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
