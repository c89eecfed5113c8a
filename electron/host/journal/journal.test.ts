import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeFrame } from './frame';
import { Journal } from './journal';
import { JournalLockedError } from './lock';
import { DROPPED_RECORD_TYPE, type JournalRecord } from './record';
import { collect, makeTempDir, removeDir, reopen, segmentFiles, tick } from './test-support';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

async function writeRecords(records: readonly JournalRecord[], segmentBytes?: number): Promise<void> {
  const journal = await Journal.open(dir, segmentBytes === undefined ? {} : { segmentBytes });
  for (const record of records) journal.append(record);
  await journal.flush();
  await journal.dispose();
}

const segmentOne = (): string => join(dir, 'journal-000001.log');

describe('Journal', () => {
  it('round-trips records across a restart, with and without a lease id', async () => {
    const records: JournalRecord[] = [
      { t: 1, type: 'lease', leaseId: 'a', data: { status: 'running', nested: [1, 'two', null, { ok: true }] } },
      { t: 2, type: 'operator', data: 'clear \n "quoted" \u2028 ünïcödé' },
      { t: 3, type: 'empty', data: null },
    ];
    await writeRecords(records);
    const { records: back, problems } = await reopen(dir);
    expect(back).toEqual(records);
    expect(problems).toEqual([]);
  });

  it('replays pending appends without an explicit flush, and flush makes them durable', async () => {
    const journal = await Journal.open(dir);
    journal.append(tick(1));
    expect(await collect(journal)).toEqual([tick(1)]);
    journal.append(tick(2));
    await journal.flush();
    expect(journal.stats()).toMatchObject({ appendedRecords: 2, durableRecords: 2, pendingRecords: 0 });
    await journal.dispose();
  });

  it('ignores and reports a torn last record, keeps everything before it, and appends cleanly after', async () => {
    await writeRecords([tick(1), tick(2), tick(3)]);
    const size = (await stat(segmentOne())).size;
    await truncate(segmentOne(), size - 7);
    const first = await reopen(dir);
    expect(first.records).toEqual([tick(1), tick(2)]);
    expect(first.problems).toHaveLength(1);
    expect(first.problems[0]).toMatch(/journal-000001\.log: torn tail of \d+ bytes/);
    expect(first.journal.recovery.tornBytes).toBeGreaterThan(0);

    await writeRecords([tick(4)]);
    const second = await reopen(dir);
    expect(second.records).toEqual([tick(1), tick(2), tick(4)]);
    expect(second.problems).toEqual([]);
  });

  it('treats trailing garbage (power-loss zeros) as a torn tail', async () => {
    await writeRecords([tick(1)]);
    await writeFile(segmentOne(), Buffer.alloc(300), { flag: 'a' });
    const { records, problems } = await reopen(dir);
    expect(records).toEqual([tick(1)]);
    expect(problems).toEqual([expect.stringMatching(/torn tail of 300 bytes/)]);
  });

  it('reports and skips damaged records in the middle and loads the rest', async () => {
    await writeRecords([tick(1), tick(2), tick(3), tick(4)]);
    const bytes = await readFile(segmentOne());
    const lines = bytes.toString('latin1').split('\n');
    // Record 2: flip a payload digit so only the CRC notices.
    lines[1] = (lines[1] ?? '').replace('"seq":2', '"seq":7');
    // Record 3: replace with a line whose header is garbage.
    lines[2] = 'not a frame at all';
    const valid = encodeFrame(JSON.stringify({ hello: 'world' })).toString('latin1').trimEnd();
    const rebuilt = [lines[0], lines[1], lines[2], valid, lines[3], ''].join('\n');
    await writeFile(segmentOne(), Buffer.from(rebuilt, 'latin1'));

    const { records, problems } = await reopen(dir);
    expect(records).toEqual([tick(1), tick(4)]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/journal-000001\.log at byte \d+: CRC mismatch; record skipped/);
    expect(problems[1]).toMatch(/malformed frame header/);
    expect(problems[2]).toMatch(/not a journal record/);
  });

  it('rotates segments at segmentBytes and replays them in order', async () => {
    const records = Array.from({ length: 200 }, (_, i) => tick(i, { data: { seq: i, pad: 'x'.repeat(i % 50) } }));
    await writeRecords(records, 2048);
    const files = await segmentFiles(dir);
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) expect((await stat(join(dir, name))).size).toBeLessThanOrEqual(2048);
    const { records: back, problems } = await reopen(dir, { segmentBytes: 2048 });
    expect(back).toEqual(records);
    expect(problems).toEqual([]);
  });

  it('puts a record bigger than a segment alone in its own segment', async () => {
    const big = tick(2, { data: 'y'.repeat(5000) });
    await writeRecords([tick(1), big, tick(3)], 1024);
    expect(await segmentFiles(dir)).toHaveLength(3);
    expect((await reopen(dir)).records).toEqual([tick(1), big, tick(3)]);
  });

  it('never throws from append: unserialisable records, reserved types and appends after dispose go to onError', async () => {
    const errors: string[] = [];
    const journal = await Journal.open(dir, { onError: (error) => errors.push(error.message) });
    expect(() => journal.append({ t: 1, type: 'bad', data: 10n })).not.toThrow();
    journal.append({ t: 2, type: 'journal.base', data: null });
    journal.append(tick(3));
    await journal.dispose();
    journal.append(tick(4));
    expect(errors).toEqual([
      expect.stringMatching(/journal record bad dropped/),
      expect.stringMatching(/journal\.base is reserved/),
      expect.stringMatching(/journal is closed; tick record dropped/),
    ]);
    expect((await reopen(dir)).records).toEqual([tick(3)]);
  });

  it('records an explicit journal.dropped marker when the write buffer overflows', async () => {
    const errors: string[] = [];
    const journal = await Journal.open(dir, { maxPendingBytes: 400, onError: (error) => errors.push(error.message) });
    for (let i = 0; i < 20; i += 1) journal.append(tick(i));
    await journal.flush();
    journal.append(tick(99));
    await journal.dispose();
    const { records } = await reopen(dir);
    const kept = records.filter((r) => r.type === 'tick');
    const marker = records.find((r) => r.type === DROPPED_RECORD_TYPE);
    expect(kept.length).toBeLessThan(21);
    expect(marker?.data).toMatchObject({ records: 21 - kept.length });
    expect(records.indexOf(marker as JournalRecord)).toBe(records.length - 2);
    expect(errors[0]).toMatch(/write buffer full/);
    expect(journal.stats().droppedRecords).toBe(21 - kept.length);
  });

  it('tells the caller whether append accepted the record', async () => {
    const journal = await Journal.open(dir, { maxPendingBytes: 400, onError: () => undefined });
    const accepted: boolean[] = [];
    for (let i = 0; i < 20; i += 1) accepted.push(journal.append(tick(i)));
    const taken = accepted.filter(Boolean).length;
    expect(accepted.slice(0, taken).every(Boolean)).toBe(true);
    expect(accepted.slice(taken).some(Boolean)).toBe(false);
    expect(taken).toBeLessThan(20);
    expect(journal.stats()).toMatchObject({ appendedRecords: taken, droppedRecords: 20 - taken });
    expect(journal.append({ t: 1, type: 'journal.base', data: null })).toBe(false);
    await journal.flush();
    expect(journal.append(tick(99))).toBe(true);
    await journal.dispose();
    expect(journal.append(tick(100))).toBe(false);
    const { records } = await reopen(dir);
    expect(records.filter((r) => r.type === 'tick').map((r) => (r.data as { seq: number }).seq)).toEqual([...Array.from({ length: taken }, (_, i) => i), 99]);
  });

  it('allows one writer per directory and takes over a lock left by a dead process', async () => {
    const journal = await Journal.open(dir);
    await expect(Journal.open(dir)).rejects.toBeInstanceOf(JournalLockedError);
    await journal.dispose();
    await writeFile(join(dir, 'journal.lock'), '99999999\n');
    const again = await Journal.open(dir);
    await again.dispose();
  });
});
