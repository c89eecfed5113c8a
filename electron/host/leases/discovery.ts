// Discovery: lists every sandbox of the account and the processes in each, on a cadence within the
// rate limit and on demand, and starts following output the console is not already reading.
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
      const record = store.upsertSandbox({ id: view.id, status: view.status, name: view.name, shape: view.shape, created_at: view.created_at });
      if (record.gone || !liveStatuses.has(view.status)) continue;
      await this.refreshProcesses(view.id);
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

  /** A lease we knew is no longer listed: ask for it; only a 404 or `destroyed` marks it gone. */
  private async confirmVanished(leaseId: string): Promise<void> {
    const { api, store, watcher } = this.options;
    try {
      const view = await api.getSandbox(leaseId);
      store.upsertSandbox({ id: view.id, status: view.status });
      if (view.status !== 'destroyed') return;
    } catch (error) {
      if (!(error instanceof CreateosError && error.status === 404)) return;
    }
    watcher.stopLease(leaseId);
    const at = this.now();
    store.update(leaseId, (record) => {
      record.gone = true;
      record.addEvidence({ kind: 'destroy-confirmed', at, proof: `sandbox no longer listed; GET /v1/sandboxes/${leaseId} answered 404 at ${new Date(at).toISOString().slice(11, 19)}` });
    });
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
