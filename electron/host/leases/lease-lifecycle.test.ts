import { describe, expect, it } from 'vitest';
import type { CreateosApi } from '../createos/api';
import { guardMessages, LifecycleGuard } from '../lifecycle/lifecycle-guard';
import { LeaseStore } from '../state/lease-store';
import { LeaseLifecycle } from './lease-lifecycle';

function deferred<T = void>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/**
 * The provider seam for pause: `hold` makes the pause POST wait until its signal aborts (then it
 * rejects with the abort reason); otherwise it pauses at once.
 */
function setup(options: { hold?: boolean } = {}) {
  const calls: string[] = [];
  const events: string[] = [];
  const entered = deferred();
  let status = 'running';
  const api = {
    http: { config: { timeoutMs: 60_000 } },
    pauseSandbox: (id: string, call: { signal?: AbortSignal } = {}) => {
      calls.push(`POST pause ${id}`);
      entered.resolve();
      if (!options.hold) {
        status = 'paused';
        return Promise.resolve({ status: 202, conflict: false });
      }
      return new Promise((_resolve, reject) => {
        call.signal?.addEventListener('abort', () => {
          events.push('pause aborted');
          reject(call.signal?.reason as Error);
        });
      });
    },
    getSandbox: (id: string) => {
      calls.push(`GET ${id}`);
      return Promise.resolve({ id, status });
    },
  } as unknown as CreateosApi;
  const store = new LeaseStore();
  store.upsertSandbox({ id: 'sb_1', status: 'running' });
  const guard = new LifecycleGuard();
  const lifecycle = new LeaseLifecycle({ api, store, guard, sleep: () => Promise.resolve() });
  return { api, calls, events, entered: entered.promise, store, guard, lifecycle };
}

describe('LeaseLifecycle.pause', () => {
  it('refuses to pause a lease whose process cleanup is unconfirmed, without asking the provider', async () => {
    const { guard, lifecycle, calls } = setup();
    guard.markUnconfirmed('sb_1');
    await expect(lifecycle.pause('sb_1')).rejects.toThrow(guardMessages.pauseUnconfirmed);
    expect(guardMessages.pauseUnconfirmed).toMatch(/not proven stopped.*[Dd]estroy/);
    expect(calls).toEqual([]);
    expect(guard.state('sb_1')).toBe('unconfirmedCleanup');
  });

  it('refuses to pause a lease that is being destroyed', async () => {
    const { guard, lifecycle, calls } = setup();
    const cleanup = deferred();
    const destroying = guard.close('sb_1', () => cleanup.promise, { clearsUnconfirmed: true });
    await expect(lifecycle.pause('sb_1')).rejects.toThrow(guardMessages.pauseWhileDestroying);
    expect(guardMessages.pauseWhileDestroying).toMatch(/being destroyed/);
    cleanup.resolve();
    await destroying;
    expect(calls).toEqual([]);
  });

  it('waits its turn behind lifecycle operations, and is refused when one of them left cleanup unconfirmed', async () => {
    const { guard, lifecycle, calls } = setup();
    const stop = deferred();
    const stopping = guard.serialize('sb_1', async () => {
      await stop.promise;
      guard.markUnconfirmed('sb_1');
    });
    const pausing = lifecycle.pause('sb_1');
    stop.resolve();
    await stopping;
    await expect(pausing).rejects.toThrow(guardMessages.pauseUnconfirmed);
    expect(calls).toEqual([]);
  });

  it('pauses: no new command starts meanwhile, and the guard is idle again afterwards', async () => {
    const { guard, lifecycle, calls, entered } = setup();
    const pausing = lifecycle.pause('sb_1');
    await entered;
    expect(guard.state('sb_1')).toBe('closing');
    await expect(guard.track('sb_1', () => Promise.resolve('ran'))).rejects.toThrow(guardMessages.closingOrUnconfirmed);
    await pausing;
    expect(calls).toEqual(['POST pause sb_1', 'GET sb_1']);
    expect(guard.state('sb_1')).toBe('idle');
    await expect(guard.track('sb_1', () => Promise.resolve('ran'))).resolves.toBe('ran');
  });

  it('leaves commands already running alone: they are frozen with the sandbox, not aborted', async () => {
    const { guard, lifecycle } = setup();
    let seen: AbortSignal | null = null;
    const finish = deferred();
    const command = guard.track('sb_1', async (signal) => {
      seen = signal;
      await finish.promise;
    });
    await lifecycle.pause('sb_1');
    expect((seen as AbortSignal | null)?.aborted).toBe(false);
    finish.resolve();
    await command;
  });

  it('gives way to a destroy: the pause is aborted and awaited before the destroy runs', async () => {
    const { guard, lifecycle, events, entered } = setup({ hold: true });
    const pausing = lifecycle.pause('sb_1');
    const settled = pausing.then(() => 'paused', (error: unknown) => (error instanceof Error ? error.message : 'failed'));
    await entered;
    const destroyed = guard.close('sb_1', () => { events.push('destroy'); return Promise.resolve('gone'); }, { clearsUnconfirmed: true });
    expect(guard.state('sb_1')).toBe('closing');
    await expect(destroyed).resolves.toBe('gone');
    expect(await settled).toBe('The lease is being destroyed.');
    expect(events).toEqual(['pause aborted', 'destroy']);
    expect(guard.state('sb_1')).toBe('idle');
  });
});
