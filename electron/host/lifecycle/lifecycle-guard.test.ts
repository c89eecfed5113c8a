import { describe, expect, it } from 'vitest';
import { guardMessages, LifecycleGuard } from './lifecycle-guard';

describe('LifecycleGuard', () => {
  it('runs lifecycle operations on one lease one at a time, in order', async () => {
    const guard = new LifecycleGuard();
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const first = guard.serialize('sb_1', async () => {
      order.push('first:start');
      await new Promise<void>((resolve) => { releaseFirst = resolve; });
      order.push('first:end');
    });
    const second = guard.serialize('sb_1', () => { order.push('second'); return Promise.resolve(); });
    await Promise.resolve();
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first:start', 'first:end', 'second']);
  });

  it('refuses work and resume while cleanup is unconfirmed, until a destroy clears it', async () => {
    const guard = new LifecycleGuard();
    guard.markUnconfirmed('sb_1');
    expect(guard.state('sb_1')).toBe('unconfirmedCleanup');
    await expect(guard.track('sb_1', () => Promise.resolve(1))).rejects.toThrow(guardMessages.closingOrUnconfirmed);
    expect(() => guard.assertResumable('sb_1')).toThrow(guardMessages.resumeBlocked);
    await guard.close('sb_1', () => Promise.resolve(), { clearsUnconfirmed: true });
    expect(guard.state('sb_1')).toBe('idle');
    await expect(guard.track('sb_1', () => Promise.resolve(2))).resolves.toBe(2);
  });

  it('keeps the unconfirmed mark when cleanup fails', async () => {
    const guard = new LifecycleGuard();
    guard.markUnconfirmed('sb_1');
    await expect(guard.close('sb_1', () => Promise.reject(new Error('HTTP 500')), { clearsUnconfirmed: true })).rejects.toThrow('HTTP 500');
    expect(guard.state('sb_1')).toBe('unconfirmedCleanup');
  });

  it('aborts and awaits work in flight before cleanup, and refuses a second close', async () => {
    const guard = new LifecycleGuard();
    const events: string[] = [];
    const work = guard.track('sb_1', (signal) => new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => { events.push('aborted'); resolve(); });
    }));
    const closing = guard.close('sb_1', () => { events.push('cleanup'); return Promise.resolve(); }, { clearsUnconfirmed: true });
    await expect(guard.close('sb_1', () => Promise.resolve(), { clearsUnconfirmed: true })).rejects.toThrow(guardMessages.cleanupInProgress);
    await Promise.all([work, closing]);
    expect(events).toEqual(['aborted', 'cleanup']);
  });

  it('a release waits its turn, closes the lease while it runs, and leaves tracked work running', async () => {
    const guard = new LifecycleGuard();
    const order: string[] = [];
    let signal: AbortSignal | null = null;
    let finishWork: () => void = () => undefined;
    const work = guard.track('sb_1', (s) => { signal = s; return new Promise<void>((resolve) => { finishWork = resolve; }); });
    let releaseFirst: () => void = () => undefined;
    const firstStarted = new Promise<void>((started) => {
      void guard.serialize('sb_1', () => new Promise<void>((resolve) => { releaseFirst = () => { order.push('first'); resolve(); }; started(); }));
    });
    const release = guard.release('sb_1', () => {
      order.push(`release:${guard.state('sb_1')}`);
      expect(() => guard.assertResumable('sb_1')).not.toThrow();
      return Promise.resolve('paused');
    });
    await firstStarted;
    releaseFirst();
    await expect(release).resolves.toBe('paused');
    expect(order).toEqual(['first', 'release:closing']);
    expect((signal as AbortSignal | null)?.aborted).toBe(false);
    expect(guard.state('sb_1')).toBe('busy');
    finishWork();
    await work;
    expect(guard.state('sb_1')).toBe('idle');
  });

  it('refuses a release queued behind an operation when a destroy started meanwhile', async () => {
    const guard = new LifecycleGuard();
    let releaseFirst: () => void = () => undefined;
    const firstStarted = new Promise<void>((started) => {
      void guard.serialize('sb_1', () => new Promise<void>((resolve) => { releaseFirst = resolve; started(); }));
    });
    const ran: string[] = [];
    const release = guard.release('sb_1', () => { ran.push('release'); return Promise.resolve(); });
    let finishDestroy: () => void = () => undefined;
    const destroy = guard.close('sb_1', () => new Promise<void>((resolve) => { finishDestroy = resolve; }), { clearsUnconfirmed: true });
    await firstStarted;
    releaseFirst();
    await expect(release).rejects.toThrow(guardMessages.pauseWhileDestroying);
    expect(() => guard.assertResumable('sb_1')).toThrow(guardMessages.resumeBlocked);
    finishDestroy();
    await destroy;
    expect(ran).toEqual([]);
  });

  it('aborts a release under way at shutdown, and refuses new ones', async () => {
    const guard = new LifecycleGuard();
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => { started = resolve; });
    const release = guard.release('sb_1', (signal) => new Promise<void>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error));
      started();
    }));
    await running;
    guard.shutdown();
    await expect(release).rejects.toThrow(guardMessages.shuttingDown);
    await expect(guard.release('sb_1', () => Promise.resolve())).rejects.toThrow(guardMessages.shuttingDown);
  });
});
