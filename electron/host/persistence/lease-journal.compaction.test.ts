import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TailEntry } from '../../../shared/domain';
import { makeTempDir, removeDir } from '../journal/test-support';
import { bulkyNote, compactionWatch, startRun, stopRun } from './test-support';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  vi.useRealTimers();
  await removeDir(dir);
});

const leaseIds = Array.from({ length: 12 }, (_, i) => `sb_${i}`);
const text = (seq: number): TailEntry => ({ kind: 'text', stream: 'stdout', text: `line-${seq}\n`, seq, at: seq });

describe('LeaseJournal compaction', () => {
  it('never compacts while replaying a journal that starts over maxBytes: every lease survives the next restart', async () => {
    // First run with the default limit: more than 4 KiB of leases.
    const first = await startRun(dir);
    for (const [i, id] of leaseIds.entries()) {
      first.store.upsertSandbox({ id, status: 'running' });
      first.store.update(id, (r) => r.note(bulkyNote(i, 400)));
    }
    await stopRun(first);

    // Restart with a limit the journal already exceeds (a compaction that kept more than maxBytes
    // only raised its threshold in memory before the crash).
    const order: string[] = [];
    const watch = compactionWatch();
    const second = await startRun(dir, {
      maxBytes: 4096,
      onCompacted: (result) => {
        order.push('compacted');
        watch.onCompacted(result);
      },
    });
    order.push('restored');
    expect(second.report.leases).toBe(leaseIds.length);
    // A write after the restore lets the compaction run, now with the restored store.
    second.store.update('sb_0', (r) => r.note(bulkyNote(100, 10)));
    await second.journal.flush();
    const compacted = await watch.done;
    expect(order).toEqual(['restored', 'compacted']);
    expect(compacted.snapshotRecords).toBe(leaseIds.length);
    await stopRun(second);

    const third = await startRun(dir);
    expect(third.report.leases).toBe(leaseIds.length);
    expect(third.store.ids().sort()).toEqual([...leaseIds].sort());
    expect(third.store.record('sb_5').timeline.map((e) => e.summary)).toEqual(['Lease discovered in state running', 'note 5']);
    expect(third.store.record('sb_0').timeline.at(-1)?.summary).toBe('note 100');
    await stopRun(third);
  });

  it('journals tail entries still waiting in their batch exactly once across a compaction and a restart', async () => {
    // Only setTimeout is faked: the tail's 20 ms batch waits until the test lets it go.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const watch = compactionWatch();
    const first = await startRun(dir, { maxBytes: 4096, onCompacted: watch.onCompacted });
    first.store.upsertSandbox({ id: 'sb_1', status: 'running' });
    const tail = first.store.tail('sb_1', 'proc_1');
    tail.append(text(1));
    tail.flush();
    for (let i = 0; i < 12; i += 1) first.store.update('sb_1', (r) => r.note(bulkyNote(i, 400)));
    tail.append(text(2));
    tail.append(text(3));
    // The journal goes over maxBytes and compacts while lines 2 and 3 wait in the batch.
    await first.journal.flush();
    await watch.done;
    first.store.dispose();
    await stopRun(first);
    vi.useRealTimers();

    const second = await startRun(dir);
    const lines = second.store.tail('sb_1', 'proc_1').snapshot().flatMap((e) => (e.kind === 'text' ? [e.text] : []));
    expect(lines).toEqual(['line-1\n', 'line-2\n', 'line-3\n']);
    await stopRun(second);
  });
});
