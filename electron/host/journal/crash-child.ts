// Child process for crash.test.ts: appends numbered records to a journal as fast as it can, with
// several flushes in flight, and prints "<seq>" once every record up to seq is flushed. The test
// kills it with SIGKILL at an arbitrary moment. Usage: crash-child.ts <dir>
import { Journal } from './journal';

const dir = process.argv[2];
if (!dir) throw new Error('usage: crash-child.ts <dir>');

const journal = await Journal.open(dir, {
  segmentBytes: 64 * 1024,
  flushIntervalMs: 5,
  onError: (error) => process.stderr.write(`journal error: ${error.message}\n`),
  onCorrupt: (problem) => process.stderr.write(`journal corrupt: ${problem}\n`),
});

let next = 0;
for await (const record of journal.replay()) {
  if (record.type === 'tick') next = (record.data as { seq: number }).seq + 1;
}
process.stdout.write(`start ${next}\n`);

const pad = 'abcdefghij'.repeat(40);
const inFlight: Promise<void>[] = [];
for (;;) {
  for (let i = 0; i < 40; i += 1) {
    journal.append({ t: Date.now(), type: 'tick', leaseId: 'lease-1', data: { seq: next, pad: pad.slice(0, next % 400) } });
    next += 1;
  }
  const upTo = next - 1;
  // stdout to a pipe is synchronous on POSIX: the parent sees the line only after the flush.
  inFlight.push(journal.flush().then(() => void process.stdout.write(`${upTo}\n`)));
  if (inFlight.length >= 4) await inFlight.shift();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
