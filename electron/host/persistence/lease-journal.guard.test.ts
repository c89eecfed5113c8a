import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../journal/test-support';
import { guardMessages } from '../lifecycle/lifecycle-guard';
import { beingDestroyed } from '../processes/tree-check';
import { guardFor, startRun, stopRun, type Run } from './test-support';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

/** A cleanup that is still running when the console is killed. */
const neverSettles = (): Promise<never> => new Promise<never>(() => undefined);

/** Restores the guard as the session does, and checks what it allows. */
async function restoredGuardRefuses(run: Run, leaseId: string): Promise<void> {
  const guard = guardFor(run.store);
  for (const id of run.report.unconfirmed) guard.markUnconfirmed(id);
  await expect(guard.track(leaseId, () => Promise.resolve('ran'))).rejects.toThrow(guardMessages.closingOrUnconfirmed);
  expect(() => guard.assertResumable(leaseId)).toThrow(guardMessages.resumeBlocked);
}

describe('LeaseJournal: lifecycle guard across a restart', () => {
  it('brings back a lease killed while its unconfirmed cleanup was being destroyed as unconfirmed', async () => {
    const first = await startRun(dir);
    const guard = guardFor(first.store);
    first.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    guard.markUnconfirmed('sb_1');
    void guard.close('sb_1', neverSettles, { clearsUnconfirmed: true });
    expect(first.store.record('sb_1').guard).toBe('closing');
    await stopRun(first);

    const second = await startRun(dir);
    expect(second.report.unconfirmed).toEqual(['sb_1']);
    expect(second.store.record('sb_1').guard).toBe('unconfirmedCleanup');
    await restoredGuardRefuses(second, 'sb_1');
    await stopRun(second);
  });

  it('keeps the unconfirmed mark through a compaction snapshot taken while the lease was closing', async () => {
    const first = await startRun(dir);
    const guard = guardFor(first.store);
    first.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    guard.markUnconfirmed('sb_1');
    void guard.close('sb_1', neverSettles, { clearsUnconfirmed: true });
    const [snapshot] = first.journal.snapshot(first.store);
    expect(snapshot?.data).toMatchObject({ state: { guard: 'closing', unconfirmed: true } });
    await stopRun(first);
  });

  it('brings back as unconfirmed a closing lease whose evidence is unproven (marked while closing)', async () => {
    const first = await startRun(dir);
    const guard = guardFor(first.store);
    first.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    void guard.close('sb_1', neverSettles, { clearsUnconfirmed: true });
    // A command aborted by the close could not confirm its cleanup: the guard stays "closing".
    guard.markUnconfirmed('sb_1');
    first.store.update('sb_1', (r) => r.addEvidence({
      kind: 'process-unproven', at: 10, processId: 'proc_1', reason: 'Process tree has not exited.', call: 'DELETE /v1/sandboxes/sb_1/processes/proc_1', reply: 'tree_exited=false',
    }));
    expect(first.store.record('sb_1').guard).toBe('closing');
    await stopRun(first);

    const second = await startRun(dir);
    expect(second.report.unconfirmed).toEqual(['sb_1']);
    await restoredGuardRefuses(second, 'sb_1');
    await stopRun(second);
  });

  it('brings back a lease whose destroy cleared the unconfirmed mark as idle', async () => {
    const first = await startRun(dir);
    const guard = guardFor(first.store);
    first.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    guard.markUnconfirmed('sb_1');
    await guard.close('sb_1', () => Promise.resolve(), { clearsUnconfirmed: true });
    await stopRun(first);

    const second = await startRun(dir);
    expect(second.report.unconfirmed).toEqual([]);
    expect(second.store.record('sb_1').guard).toBe('idle');
    await stopRun(second);
  });
});

describe('LeaseJournal: a destroy interrupted by the stop', () => {
  async function killedWhileDestroying(withUnprovenProcess: boolean): Promise<void> {
    const first = await startRun(dir);
    first.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    if (withUnprovenProcess) {
      first.store.update('sb_1', (r) => r.addEvidence({
        kind: 'process-unproven', at: 5, processId: 'proc_1', reason: 'Process tree has not exited.', call: 'DELETE /v1/sandboxes/sb_1/processes/proc_1', reply: 'tree_exited=false',
      }));
    }
    first.store.update('sb_1', (r) => {
      r.destroy = { state: 'destroying', startedAt: 10, finishedAt: null, attempts: 1, reason: 'done', requestedBy: 'ops', proof: null, error: null };
      r.addEvidence({ kind: 'destroy-started', at: 10 });
    });
    expect(first.store.record('sb_1').toLease().verdict.status).toBe(withUnprovenProcess ? 'unproven' : 'pending');
    await stopRun(first);
  }

  it('restores it as a failed destroy with destroy-failed evidence, so discovery and tree checks see the lease again', async () => {
    await killedWhileDestroying(false);
    const second = await startRun(dir, { now: () => 99 });
    const record = second.store.record('sb_1');
    expect(record.destroy).toMatchObject({ state: 'failed', finishedAt: 99, startedAt: 10, attempts: 1, requestedBy: 'ops' });
    expect(record.destroy?.error).toMatch(/destroy was interrupted when the console stopped; destroy the lease again/);
    expect(record.evidence.at(-1)).toEqual({
      kind: 'destroy-failed', at: 99, reason: expect.stringMatching(/^The destroy was interrupted when the console stopped; destroy the lease again\.$/) as unknown,
      call: 'DELETE /v1/sandboxes/sb_1', reply: expect.stringMatching(/no reply/) as unknown,
    });
    expect(record.timeline.at(-1)).toMatchObject({ kind: 'unproven', summary: expect.stringMatching(/^Destroy failed: The destroy was interrupted/) as unknown });
    expect(record.toLease().verdict.status).not.toBe('pending');
    expect(beingDestroyed(second.store, 'sb_1')).toBe(false);
    await stopRun(second);

    // The repair was journaled: the next restart neither repeats nor loses it.
    const third = await startRun(dir);
    const failed = third.store.record('sb_1').evidence.filter((e) => e.kind === 'destroy-failed');
    expect(failed).toHaveLength(1);
    expect(third.store.record('sb_1').destroy?.state).toBe('failed');
    await stopRun(third);
  });

  it('leaves a lease with unproven processes unproven and its guard unconfirmed', async () => {
    await killedWhileDestroying(true);
    const second = await startRun(dir);
    expect(second.store.record('sb_1').toLease().verdict.status).toBe('unproven');
    expect(second.report.unconfirmed).toEqual(['sb_1']);
    await restoredGuardRefuses(second, 'sb_1');
    await stopRun(second);
  });
});
