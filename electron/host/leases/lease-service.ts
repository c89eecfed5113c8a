// The leases domain of the host: list, watch, create (acquire), destroy, refresh.
import { randomUUID } from 'node:crypto';
import type { ContractInputs } from '../../../shared/contract';
import type { Lease, TimelineEntry } from '../../../shared/domain';
import { HostError } from '../host-error';
import type { CreateosApi } from '../createos/api';
import { CreateosError } from '../createos/errors';
import type { LeaseOperations, Unsubscribe } from '../services';
import { mapLimit } from '../util/map-limit';
import type { LeaseStore } from '../state/lease-store';
import type { DestroyWorkflow } from './destroy-workflow';
import { markerPath, workspaceDir, type LeaseLifecycle } from './lease-lifecycle';
import type { Discovery } from './discovery';


export interface LeaseServiceOptions {
  api: CreateosApi;
  store: LeaseStore;
  discovery: Discovery;
  destroyer: DestroyWorkflow;
  lifecycle: LeaseLifecycle;
  defaultShape: string;
  onActivity?: (summary: { leaseId: string; actor: string; action: string; detail: string }) => void;
}

export class LeaseService implements LeaseOperations {
  constructor(private readonly options: LeaseServiceOptions) {
  }

  list(): Lease[] {
    return this.options.store.list();
  }

  get(leaseId: string): Lease {
    return this.options.store.record(leaseId).toLease();
  }

  watch(listener: Parameters<LeaseOperations['watch']>[0]): Unsubscribe {
    return this.options.store.watch(listener);
  }

  refresh(): Promise<number> {
    return this.options.discovery.refresh();
  }

  destroy(leaseId: string, reason: string, actor: string): Promise<Lease> {
    this.options.onActivity?.({ leaseId, actor, action: 'destroy lease', detail: reason });
    return this.options.destroyer.destroy(leaseId, reason, actor);
  }

  async pause(leaseId: string, actor: string): Promise<Lease> {
    this.options.onActivity?.({ leaseId, actor, action: 'pause lease', detail: '' });
    await this.options.lifecycle.pause(leaseId);
    return this.get(leaseId);
  }

  async resume(leaseId: string, actor: string): Promise<{ lease: Lease; resumed: boolean; expired: string | null }> {
    this.options.onActivity?.({ leaseId, actor, action: 'resume lease', detail: '' });
    const outcome = await this.options.lifecycle.resume(leaseId);
    const expired = outcome.resumed ? null : outcome.expired;
    if (expired !== null) this.options.onActivity?.({ leaseId, actor: 'host', action: 'lease expired', detail: expired });
    return { lease: this.get(leaseId), resumed: outcome.resumed, expired };
  }

  /** Destroys many leases, a few at a time (the pacer keeps requests within the rate limit). */
  async destroyMany(leaseIds: readonly string[], reason: string, actor: string): Promise<{ results: Array<{ leaseId: string; ok: boolean; message: string | null }> }> {
    const unique = [...new Set(leaseIds)];
    const results = await mapLimit(unique, 4, async (leaseId) => {
      try {
        await this.destroy(leaseId, reason, actor);
        return { leaseId, ok: true, message: null };
      } catch (error) {
        return { leaseId, ok: false, message: error instanceof Error ? error.message : 'destroy failed' };
      }
    });
    return { results };
  }

  /** Forgets a destroyed lease and its kept output. Live leases cannot be cleared. */
  clear(leaseId: string, actor: string): Promise<boolean> {
    const record = this.options.store.record(leaseId);
    if (!record.gone) return Promise.reject(new HostError('CONFLICT', `Lease ${leaseId} is not destroyed; only destroyed leases can be cleared.`));
    this.options.onActivity?.({ leaseId, actor, action: 'clear lease record', detail: '' });
    this.options.store.remove(leaseId);
    return Promise.resolve(true);
  }

  timeline(leaseId: string): TimelineEntry[] {
    return [...this.options.store.record(leaseId).timeline];
  }

  /** Creates a sandbox, waits for it to run, prepares the workspace and writes the lease marker. */
  async create(input: ContractInputs['leases']['create'], actor: string): Promise<Lease> {
    const { api, store } = this.options;
    const created = await api.createSandbox({ shape: input.shape ?? this.options.defaultShape, ...(input.name === undefined ? {} : { name: input.name }) });
    store.upsertSandbox({ id: created.id, status: created.status ?? 'creating', name: input.name });
    this.options.onActivity?.({ leaseId: created.id, actor, action: 'create lease', detail: input.name ?? '' });
    try {
      await this.options.lifecycle.waitForStatus(created.id, 'running', ['creating']);
      const mkdir = await api.exec(created.id, { cmd: 'bash', args: ['-lc', `mkdir -p -- '${workspaceDir}'`] });
      if (mkdir.result.exit_code !== 0) throw new CreateosError('invalid_response', 'CreateOS workspace preparation failed; the image must provide Bash.');
      const marker = randomUUID();
      await api.putFile(created.id, markerPath, Buffer.from(marker));
      store.update(created.id, (record) => { record.marker = marker; });
    } catch (error) {
      try {
        await this.options.destroyer.destroy(created.id, 'lease setup failed', 'host');
      } catch {
        throw new CreateosError('invalid_response', `CreateOS setup failed and cleanup is unconfirmed for sandbox ${created.id}.`);
      }
      throw error;
    }
    return store.record(created.id).toLease();
  }
}
