// Destroying a lease, with proof: DELETE the sandbox (retrying transient failures with backoff),
// then ask again until the provider says it is gone (404 or `destroyed`). Idempotent: a second
// request while one runs joins it; a lease already confirmed gone is returned as it is.
import type { Lease } from '../../../shared/domain';
import type { CreateosApi } from '../createos/api';
import { CreateosError } from '../createos/errors';
import type { LifecycleGuard } from '../lifecycle/lifecycle-guard';
import type { LeaseStore } from '../state/lease-store';

export interface DestroyWorkflowOptions {
  api: CreateosApi;
  store: LeaseStore;
  guard: LifecycleGuard;
  /** Called once the sandbox is confirmed gone, to stop watching its processes. */
  onGone: (leaseId: string) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  maxAttempts?: number;
  confirmTimeoutMs?: number;
}

export function isTransient(error: unknown): boolean {
  if (!(error instanceof CreateosError)) return false;
  if (error.code === 'connection') return true;
  return error.code === 'http' && error.status !== undefined && (error.status >= 500 || error.status === 429 || error.status === 408);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

export class DestroyWorkflow {
  private readonly inFlight = new Map<string, Promise<Lease>>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: DestroyWorkflowOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  destroy(leaseId: string, reason: string, actor: string): Promise<Lease> {
    const record = this.options.store.record(leaseId);
    if (record.gone) return Promise.resolve(record.toLease());
    const running = this.inFlight.get(leaseId);
    if (running) return running;
    const work = this.run(leaseId, reason, actor).finally(() => this.inFlight.delete(leaseId));
    this.inFlight.set(leaseId, work);
    return work;
  }

  private async run(leaseId: string, reason: string, actor: string): Promise<Lease> {
    const { store, guard } = this.options;
    const startedAt = this.now();
    store.update(leaseId, (r) => {
      r.destroy = { state: 'destroying', startedAt, finishedAt: null, attempts: 0, reason, requestedBy: actor, proof: null, error: null };
      r.addEvidence({ kind: 'destroy-started', at: startedAt });
    });
    try {
      const proof = await guard.close(leaseId, () => this.deleteAndConfirm(leaseId), { clearsUnconfirmed: true });
      const at = this.now();
      this.options.onGone(leaseId);
      return store.update(leaseId, (r) => {
        r.gone = true;
        r.sandbox = { ...r.sandbox, status: 'destroyed' };
        r.destroy = { ...(r.destroy ?? { startedAt, attempts: 1, reason, requestedBy: actor }), state: 'destroyed', finishedAt: at, proof, error: null };
        r.addEvidence({ kind: 'destroy-confirmed', at, proof });
      });
    } catch (error) {
      const at = this.now();
      const message = describe(error);
      store.update(leaseId, (r) => {
        r.destroy = { ...(r.destroy ?? { startedAt, attempts: 0, reason, requestedBy: actor, proof: null }), state: 'failed', finishedAt: at, error: message };
        r.addEvidence({ kind: 'destroy-failed', at, reason: message, call: `DELETE /v1/sandboxes/${leaseId}`, reply: message });
      });
      throw error;
    }
  }

  /** Returns the proof text once the provider says the sandbox is gone. */
  private async deleteAndConfirm(leaseId: string): Promise<string> {
    const { api, store } = this.options;
    const maxAttempts = this.options.maxAttempts ?? 5;
    let attempt = 0;
    for (;;) {
      attempt += 1;
      store.update(leaseId, (r) => { if (r.destroy) r.destroy = { ...r.destroy, attempts: attempt }; });
      try {
        await api.deleteSandbox(leaseId);
        break;
      } catch (error) {
        if (!isTransient(error) || attempt >= maxAttempts) throw error;
        await this.sleep(Math.min(500 * 2 ** (attempt - 1), 8000));
      }
    }
    const deadline = this.now() + (this.options.confirmTimeoutMs ?? 60_000);
    for (;;) {
      try {
        const view = await api.getSandbox(leaseId);
        if (view.status === 'destroyed') return `sandbox gone at ${clock(this.now())} (GET answered status destroyed); no process remains`;
      } catch (error) {
        if (error instanceof CreateosError && error.status === 404) return `sandbox gone at ${clock(this.now())} (GET answered 404); no process remains`;
        if (!isTransient(error)) throw error;
      }
      if (this.now() > deadline) throw new Error(`The sandbox was deleted but the provider still lists ${leaseId}; destruction is unconfirmed.`);
      await this.sleep(250);
    }
  }
}
