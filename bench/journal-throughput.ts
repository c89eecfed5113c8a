// Journal figures: append throughput (records/s, MB/s, fdatasync'd batches) and restart replay time.
// Usage: tsx bench/journal-throughput.ts [size=1G] [--record=<bytes of text per record, default 1024>] [--dir=<path>] [--keep]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../electron/host/journal';

const MB = 1024 * 1024;

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kmg]?)i?b?$/i.exec(text);
  if (!match?.[1]) throw new Error(`not a size: ${text} (try 1G, 200M, 64K)`);
  const unit = { '': 1, k: 1024, m: MB, g: 1024 * MB }[(match[2] ?? '').toLowerCase()] ?? 1;
  return Math.round(Number(match[1]) * unit);
}

function option(name: string): string | undefined {
  return process.argv.slice(2).find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** Output-like text: short lines with quotes, tabs and the odd non-ASCII character, so JSON escaping is exercised. */
function textOf(bytes: number, seed: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i += 1) {
    const line = `[${seed}:${i}] worker "${(seed * 31 + i) % 97}" wrote\tblock ${i * 4096} ✓`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

async function main(): Promise<void> {
  const target = parseSize(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '1G');
  const recordText = Number(option('record') ?? 1024);
  const dir = option('dir') ?? (await mkdtemp(join(tmpdir(), 'leasewatch-journal-bench-')));
  const keep = process.argv.includes('--keep');
  const texts = Array.from({ length: 64 }, (_, i) => textOf(recordText, i));
  const errors: string[] = [];
  const onError = (error: Error): void => void errors.push(error.message);

  console.log(`journal bench: ${fmt(target / MB, 0)} MiB, ${recordText} bytes of text per record, in ${dir}`);
  const journal = await Journal.open(dir, { maxBytes: Number.POSITIVE_INFINITY, onError });
  const started = process.hrtime.bigint();
  let records = 0;
  let flushes = 0;
  let peakRss = 0;
  while (journal.stats().totalBytes + journal.stats().pendingBytes < target) {
    journal.append({
      t: 1_700_000_000_000 + records,
      type: 'tail',
      leaseId: `lease-${records % 16}`,
      data: { processId: `proc-${records % 64}`, stream: records % 5 === 0 ? 'stderr' : 'stdout', seq: records, text: texts[records % texts.length] },
    });
    records += 1;
    if (journal.stats().pendingBytes >= 8 * MB) {
      await journal.flush();
      flushes += 1;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
  }
  await journal.flush();
  const appendSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { totalBytes, segments } = journal.stats();
  await journal.dispose();

  console.log(`append: ${records} records, ${fmt(totalBytes / MB)} MiB in ${segments} segments, ${fmt(appendSeconds, 2)} s`);
  console.log(`append: ${fmt(records / appendSeconds, 0)} records/s, ${fmt(totalBytes / MB / appendSeconds)} MiB/s (incl. fdatasync; ${flushes} waited flushes), peak RSS ${fmt(peakRss / MB, 0)} MiB`);

  const openStarted = process.hrtime.bigint();
  const reopened = await Journal.open(dir, { maxBytes: Number.POSITIVE_INFINITY, onError, onCorrupt: (problem) => errors.push(problem) });
  const openSeconds = Number(process.hrtime.bigint() - openStarted) / 1e9;
  const replayStarted = process.hrtime.bigint();
  let replayed = 0;
  let lastSeq = -1;
  let inOrder = true;
  for await (const record of reopened.replay()) {
    const seq = (record.data as { seq: number }).seq;
    if (seq !== lastSeq + 1) inOrder = false;
    lastSeq = seq;
    replayed += 1;
  }
  const replaySeconds = Number(process.hrtime.bigint() - replayStarted) / 1e9;
  await reopened.dispose();

  console.log(`restart: open (recovery) ${fmt(openSeconds * 1000)} ms; replay of ${replayed} records (${inOrder && replayed === records ? 'all, in order' : 'MISMATCH'}) ${fmt(replaySeconds, 2)} s = ${fmt(totalBytes / MB / replaySeconds)} MiB/s, ${fmt(replayed / replaySeconds, 0)} records/s`);
  if (errors.length > 0) console.log(`problems: ${errors.length}, first: ${errors[0] ?? ''}`);
  if (!keep) await rm(dir, { recursive: true, force: true });
  if (errors.length > 0 || !inOrder || replayed !== records) process.exitCode = 1;
}

await main();
