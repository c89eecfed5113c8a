import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DROPPED_RECORD_TYPE, Journal } from '../journal';
import { makeTempDir, removeDir } from '../journal/test-support';
import { bulkyNote, compactionWatch, startRun, stopRun } from './test-support';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

// Bigger than any room a note on sb_a can leave in the full buffer.
const unprovenProcess = {
  kind: 'process-unproven', at: 20, processId: 'proc_1', reason: 'Process tree has not exited.', call: 'DELETE /v1/sandboxes/sb_b/processes/proc_1', reply: `tree_exited=false ${'.'.repeat(800)}`,
} as const;

describe('LeaseJournal: a full journal write buffer', () => {
  it('journals changes refused by a full buffer once it drains, even for a lease that does not change again', async () => {
    const first = await startRun(dir, { maxPendingBytes: 4000 });
    first.store.upsertSandbox({ id: 'sb_a', status: 'running' });
    first.store.upsertSandbox({ id: 'sb_b', status: 'running' });
    for (let i = 1; i <= 6; i += 1) first.store.update('sb_a', (r) => r.note(bulkyNote(i, 500)));
    const droppedBefore = first.journal.journal.stats().droppedRecords;
    expect(droppedBefore).toBeGreaterThan(0);
    first.store.update('sb_b', (r) => r.addEvidence(unprovenProcess));
    // sb_b's evidence was refused too.
    expect(first.journal.journal.stats().droppedRecords).toBe(droppedBefore + 1);
    await first.journal.flush();
    // The buffer has drained; one more change to sb_a only.
    first.store.update('sb_a', (r) => r.note(bulkyNote(7, 10)));
    await stopRun(first);

    const second = await startRun(dir);
    const notes = second.store.record('sb_a').timeline.filter((e) => e.kind === 'operator').map((e) => e.summary);
    expect(notes).toEqual(['note 1', 'note 2', 'note 3', 'note 4', 'note 5', 'note 6', 'note 7']);
    expect(second.store.record('sb_b').evidence).toContainEqual(unprovenProcess);
    await stopRun(second);
  });

  it('does not journal refused changes again once a compaction snapshot holds them', async () => {
    const watch = compactionWatch();
    const first = await startRun(dir, { maxPendingBytes: 4000, maxBytes: 2048, onCompacted: watch.onCompacted });
    first.store.upsertSandbox({ id: 'sb_a', status: 'running' });
    first.store.upsertSandbox({ id: 'sb_b', status: 'running' });
    for (let i = 1; i <= 6; i += 1) first.store.update('sb_a', (r) => r.note(bulkyNote(i, 500)));
    first.store.update('sb_b', (r) => r.addEvidence(unprovenProcess));
    expect(first.journal.journal.stats().droppedRecords).toBeGreaterThan(1);
    // Writing what was accepted takes the journal over maxBytes: the compaction snapshots everything.
    await first.journal.flush();
    await watch.done;
    first.store.update('sb_a', (r) => r.note(bulkyNote(7, 10)));
    await stopRun(first);

    const second = await startRun(dir);
    const notes = second.store.record('sb_a').timeline.filter((e) => e.kind === 'operator').map((e) => e.summary);
    expect(notes).toEqual(['note 1', 'note 2', 'note 3', 'note 4', 'note 5', 'note 6', 'note 7']);
    expect(second.store.record('sb_b').evidence.filter((e) => e.kind === 'process-unproven')).toEqual([unprovenProcess]);
    await stopRun(second);
  });

  it('surfaces a journal.dropped marker at restore as lease-unproven evidence on every open lease, once', async () => {
    const first = await startRun(dir);
    first.store.upsertSandbox({ id: 'sb_open', status: 'running' });
    first.store.upsertSandbox({ id: 'sb_gone', status: 'running' });
    first.store.update('sb_gone', (r) => {
      r.gone = true;
      r.addEvidence({ kind: 'destroy-confirmed', at: 5, proof: 'GET answered 404' });
    });
    await stopRun(first);
    const raw = await Journal.open(dir);
    raw.append({ t: 3000, type: DROPPED_RECORD_TYPE, data: { records: 3, bytes: 900, from: 1000, to: 2000 } });
    await raw.flush();
    await raw.dispose();

    const second = await startRun(dir, { now: () => 4000 });
    const open = second.store.record('sb_open');
    expect(open.evidence.at(-1)).toEqual({
      kind: 'lease-unproven', at: 4000, reason: expect.stringMatching(/journal dropped records/) as unknown,
      call: 'journal append', reply: expect.stringMatching(/3 record\(s\) \(900 bytes\) dropped between 1970-01-01T00:00:01\.000Z and 1970-01-01T00:00:02\.000Z/) as unknown,
    });
    expect(open.toLease().verdict.status).toBe('unproven');
    expect(second.report.unconfirmed).toEqual(['sb_open']);
    expect(second.report.skipped).toEqual([expect.stringMatching(/3 record\(s\) .*dropped/) as unknown]);
    expect(second.store.record('sb_gone').evidence.map((e) => e.kind)).toEqual(['destroy-confirmed']);
    await stopRun(second);

    const third = await startRun(dir);
    expect(third.store.record('sb_open').evidence.filter((e) => e.kind === 'lease-unproven')).toHaveLength(1);
    await stopRun(third);
  });
});
