// Helpers shared by the journal tests (not a test file itself).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, type JournalOptions } from './journal';
import type { JournalRecord } from './record';

export async function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'leasewatch-journal-'));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function collect(journal: Journal): Promise<JournalRecord[]> {
  const records: JournalRecord[] = [];
  for await (const record of journal.replay()) records.push(record);
  return records;
}

/** Opens the journal, reads everything back, closes it; returns the records and every problem reported. */
export async function reopen(dir: string, opts: JournalOptions = {}): Promise<{ records: JournalRecord[]; problems: string[]; journal: Journal }> {
  const problems: string[] = [];
  const journal = await Journal.open(dir, { ...opts, onCorrupt: (problem) => problems.push(problem) });
  const records = await collect(journal);
  await journal.dispose();
  return { records, problems, journal };
}

export async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => /^journal-\d+\.log$/.test(name)).sort();
}

export function tick(seq: number, extra: Partial<JournalRecord> = {}): JournalRecord {
  return { t: 1_700_000_000_000 + seq, type: 'tick', leaseId: 'lease-1', data: { seq }, ...extra };
}
