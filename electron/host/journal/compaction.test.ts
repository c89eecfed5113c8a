import { copyFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompactionResult } from './compaction';
import { Journal } from './journal';
import type { JournalRecord } from './record';
import { collect, makeTempDir, removeDir, reopen, segmentFiles, tick } from './test-support';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const snapshot: JournalRecord = { t: 500, type: 'snapshot', data: { leases: ['lease-1'] } };
const seqOf = (r: JournalRecord): number => (r.data as { seq: number }).seq;

async function filled(count: number, segmentBytes = 1024): Promise<Journal> {
  const journal = await Journal.open(dir, { segmentBytes });
  for (let i = 0; i < count; i += 1) journal.append(tick(i));
  await journal.flush();
  return journal;
}

/** Resolves with the first compaction the journal reports. */
function compactionSignal(): { done: Promise<CompactionResult>; onCompacted: (result: CompactionResult) => void } {
  let onCompacted!: (result: CompactionResult) => void;
  const done = new Promise<CompactionResult>((resolve) => {
    onCompacted = resolve;
  });
  return { done, onCompacted };
}

describe('Journal compaction', () => {
  it('keeps what keep asks (or its replacement), then the snapshot, then later appends; old segments go', async () => {
    const journal = await filled(60);
    const before = await segmentFiles(dir);
    expect(before.length).toBeGreaterThan(2);
    journal.append(tick(60)); // pending when compaction starts: written before, subject to keep
    const result = await journal.compact({
      keep: (r) => (seqOf(r) % 10 === 0 ? true : seqOf(r) === 7 ? { ...r, type: 'summary' } : false),
      snapshot: [snapshot],
    });
    journal.append(tick(61));
    const expected = [tick(0), { ...tick(7), type: 'summary' }, tick(10), tick(20), tick(30), tick(40), tick(50), tick(60), snapshot, tick(61)];
    expect(await collect(journal)).toEqual(expected);
    expect(result).toMatchObject({ kept: 8, dropped: 53, snapshotRecords: 1 });
    expect(result.bytesAfter).toBeLessThan(result.bytesBefore);
    await journal.dispose();

    const after = await segmentFiles(dir);
    expect(after.every((name) => !before.includes(name))).toBe(true);
    const { records, problems } = await reopen(dir);
    expect(records).toEqual(expected);
    expect(problems).toEqual([]);
  });

  it('accepts a bare keep function and keeps working with rotation afterwards', async () => {
    const journal = await filled(30, 512);
    await journal.compact((r) => seqOf(r) >= 25);
    for (let i = 30; i < 60; i += 1) journal.append(tick(i));
    await journal.dispose();
    const { records } = await reopen(dir);
    expect(records.map(seqOf)).toEqual([...Array.from({ length: 5 }, (_, i) => 25 + i), ...Array.from({ length: 30 }, (_, i) => 30 + i)]);
    expect((await segmentFiles(dir)).length).toBeGreaterThan(1);
  });

  it('defers deleting old segments while a replay is reading them', async () => {
    const journal = await filled(40);
    const reader = journal.replay();
    const first = await reader.next();
    expect(first.value).toEqual(tick(0));
    await journal.compact({ snapshot: [snapshot] });
    const rest: JournalRecord[] = [];
    for await (const record of reader) rest.push(record);
    expect(rest.map(seqOf)).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
    expect(await collect(journal)).toEqual([snapshot]);
    await journal.dispose();
    expect(await segmentFiles(dir)).toHaveLength(1);
  });

  it('after a crash before the rename, the old segments stand and the temporary file is discarded', async () => {
    const journal = await filled(20);
    await journal.dispose();
    const files = await segmentFiles(dir);
    await writeFile(join(dir, 'journal-000099.log.tmp'), 'half a compacted segment');
    const { records, problems } = await reopen(dir);
    expect(records.map(seqOf)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(problems).toEqual([]);
    expect(await segmentFiles(dir)).toEqual(files);
    expect((await readdir(dir)).some((name) => name.endsWith('.tmp'))).toBe(false);
  });

  it('after a crash between the rename and the deletions, open finishes the compaction', async () => {
    const journal = await filled(20);
    const oldFiles = await segmentFiles(dir);
    const saved = join(dir, 'saved');
    for (const name of oldFiles) await copyFile(join(dir, name), `${saved}-${name}`);
    await journal.compact({ keep: (r) => seqOf(r) === 3, snapshot: [snapshot] });
    await journal.dispose();
    for (const name of oldFiles) await copyFile(`${saved}-${name}`, join(dir, name)); // as if never deleted
    const { records, problems, journal: reopened } = await reopen(dir);
    expect(records).toEqual([tick(3), snapshot]);
    expect(problems).toEqual([]);
    expect(reopened.recovery.removedSegments).toBe(oldFiles.length);
  });

  it('asks autoCompact for a plan once the journal exceeds maxBytes', async () => {
    let asked = 0;
    const { done, onCompacted } = compactionSignal();
    const journal = await Journal.open(dir, {
      segmentBytes: 1024,
      maxBytes: 4096,
      autoCompact: () => {
        asked += 1;
        return { snapshot: [snapshot] };
      },
      onCompacted,
    });
    for (let i = 0; i < 100; i += 1) journal.append(tick(i));
    await journal.flush();
    const result = await done;
    expect(asked).toBe(1);
    expect(result.bytesBefore).toBeGreaterThan(4096);
    const records = await collect(journal);
    expect(records[0]).toEqual(snapshot);
    expect(journal.stats().totalBytes).toBeLessThan(4096);
    await journal.dispose();
  });

  it('keeps records appended after autoCompact made its plan: they follow the snapshot', async () => {
    const watch: { journal: Journal | null } = { journal: null };
    const { done, onCompacted } = compactionSignal();
    const journal = await Journal.open(dir, {
      segmentBytes: 1024,
      maxBytes: 4096,
      autoCompact: () => {
        // Appended once the plan exists, before the compaction runs: not part of the snapshot.
        queueMicrotask(() => watch.journal?.append(tick(1000)));
        return { snapshot: [snapshot] };
      },
      onCompacted,
    });
    watch.journal = journal;
    for (let i = 0; i < 100; i += 1) journal.append(tick(i));
    await journal.flush();
    await done;
    await journal.dispose();
    expect((await reopen(dir)).records).toEqual([snapshot, tick(1000)]);
  });

  it('asks autoCompact again at the next write when it answers null (not now)', async () => {
    let ready = false;
    let asked = 0;
    const { done, onCompacted } = compactionSignal();
    const journal = await Journal.open(dir, {
      segmentBytes: 1024,
      maxBytes: 4096,
      autoCompact: () => {
        asked += 1;
        return ready ? { snapshot: [snapshot] } : null;
      },
      onCompacted,
    });
    for (let i = 0; i < 100; i += 1) journal.append(tick(i));
    await journal.flush();
    expect(asked).toBe(1);
    expect(journal.stats().segments).toBeGreaterThan(4);
    ready = true;
    journal.append(tick(100));
    await journal.flush();
    await done;
    expect(asked).toBe(2);
    expect(await collect(journal)).toEqual([snapshot]);
    await journal.dispose();
  });

  it('reports once when the journal exceeds maxBytes with no compaction policy', async () => {
    const errors: string[] = [];
    const journal = await Journal.open(dir, { segmentBytes: 1024, maxBytes: 2048, onError: (error) => errors.push(error.message) });
    for (let i = 0; i < 100; i += 1) {
      journal.append(tick(i));
      if (i % 10 === 0) await journal.flush();
    }
    await journal.dispose();
    expect(errors).toEqual([expect.stringMatching(/more than maxBytes 2048, and no autoCompact is configured/)]);
  });
});
