// Pause and resume (spec §5): serialised per lease through the guard. Pause is a release: refused
// while the lease is being destroyed or its cleanup is unconfirmed, and aborted by a destroy. Resume is
// refused in the same states and checks the workspace marker written at create.
import type { CreateosApi } from '../createos/api';
import { CreateosError } from '../createos/errors';
import type { LifecycleGuard } from '../lifecycle/lifecycle-guard';
import type { LeaseStore } from '../state/lease-store';

export const workspaceDir = '/paperclip-workspace';
export const markerPath = `${workspaceDir}/.paperclip-runtime/.paperclip-createos-lease`;
const markerPattern = /^[0-9a-f-]{36}$/;

export type ResumeOutcome = { resumed: true } | { resumed: false; expired: string };

export interface LeaseLifecycleOptions {
  api: CreateosApi;
  store: LeaseStore;
  guard: LifecycleGuard;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

export class LeaseLifecycle {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: LeaseLifecycleOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  pause(leaseId: string): Promise<void> {
    const { api, guard } = this.options;
    return guard.release(leaseId, async (released) => {
      if (this.options.store.record(leaseId).gone) throw new CreateosError('invalid_sandbox', `Lease ${leaseId} is destroyed.`);
      // Each call keeps its usual deadline; a destroy (through `released`) cuts it short and says so.
      const signal = (): AbortSignal => AbortSignal.any([released, AbortSignal.timeout(api.http.config.timeoutMs)]);
      try {
        await api.pauseSandbox(leaseId, { signal: signal() });
        await this.waitForStatus(leaseId, 'paused', ['pausing', 'running'], signal);
      } catch (error) {
        released.throwIfAborted();
        throw error;
      }
    });
  }

  resume(leaseId: string): Promise<ResumeOutcome> {
    const { api, guard, store } = this.options;
    guard.assertResumable(leaseId);
    return guard.serialize(leaseId, async () => {
      guard.assertResumable(leaseId);
      const record = store.record(leaseId);
      const marker = record.marker;
      if (marker === null || !markerPattern.test(marker)) return { resumed: false, expired: 'the lease has no valid workspace marker' };
      let view;
      try {
        view = await api.getSandbox(leaseId);
      } catch (error) {
        if (error instanceof CreateosError && error.status === 404) return { resumed: false, expired: 'the sandbox no longer exists' };
        throw error;
      }
      if (view.status === 'destroyed' || view.status === 'failed') return { resumed: false, expired: `the sandbox is ${view.status}` };
      if (view.status !== 'running') {
        await api.resumeSandbox(leaseId);
        await this.waitForStatus(leaseId, 'running', ['resuming', 'paused', 'error']);
      }
      const check = await api.exec(leaseId, { cmd: 'cat', args: [markerPath] });
      if (check.result.exit_code !== 0 || check.result.stdout !== marker) return { resumed: false, expired: 'the workspace marker does not match this lease' };
      return { resumed: true };
    });
  }

  /**
   * Polls until the sandbox reaches `target`; only the listed in-between states are waited out.
   * `signal`, when given, makes the signal of each call; once it is aborted, polling stops.
   */
  async waitForStatus(leaseId: string, target: string, waitable: readonly string[], signal?: () => AbortSignal): Promise<void> {
    const { api, store } = this.options;
    const deadline = Date.now() + (this.options.timeoutMs ?? 120_000);
    for (;;) {
      const call = signal?.();
      call?.throwIfAborted();
      const view = await api.getSandbox(leaseId, call ? { signal: call } : {});
      store.upsertSandbox({ id: view.id, status: view.status, name: view.name, shape: view.shape, created_at: view.created_at });
      if (view.status === target) return;
      if (!waitable.includes(view.status) || Date.now() > deadline) throw new CreateosError('invalid_sandbox', `CreateOS sandbox did not reach ${target}.`);
      await this.sleep(250);
    }
  }
}
