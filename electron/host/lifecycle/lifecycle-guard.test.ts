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
});
