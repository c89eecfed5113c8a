// GET …/processes/:pid/connect?after=N — NDJSON: retained frames with seq > N, live output,
// then one `exit` frame. Heartbeats while idle; `error` frame if output is evicted under an open
// stream; 410 when `after` is already older than the journal. Honours socket backpressure.
import type { ServerResponse } from 'node:http';
import { HttpError } from './http';
import type { JournalReader, OutputJournal } from './journal';

export const HEARTBEAT_MS = 3000;
const BATCH_BYTES = 1024 * 1024;

/** drop-stream drill: cut the stream after `afterFrames` data frames, if `take()` still grants it then. */
export interface DropStreamPlan {
  afterFrames: number;
  /** Uses up one of the fault's `times`; false if it is no longer armed (then the stream goes on). */
  take(): boolean;
}

export interface ConnectOptions {
  dropStream: DropStreamPlan | null;
  heartbeatMs?: number;
}

export function checkAfter(journal: OutputJournal, after: number): void {
  if (after < journal.oldestSeq - 1) {
    throw new HttpError(410, 'output_offset_expired', `output after seq ${after} was evicted; oldest available seq is ${journal.oldestSeq}`, {
      error: 'output_offset_expired',
      oldest_available_seq: journal.oldestSeq,
    });
  }
  // Always: were a future `after` accepted while the process runs, the seqs up to it would be skipped.
  if (after > journal.newestSeq) {
    throw new HttpError(400, 'invalid_request', `query.after: ${after} is beyond the newest seq ${journal.newestSeq}`);
  }
}

export async function streamOutput(res: ServerResponse, journal: OutputJournal, after: number, opts: ConnectOptions): Promise<void> {
  checkAfter(journal, after);
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.flushHeaders();
  const reader: JournalReader = { cursor: after };
  journal.attach(reader);
  let closed = false;
  let wake: () => void = () => undefined;
  const onClose = () => {
    closed = true;
    wake();
  };
  res.once('close', onClose);
  const drained = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      res.once('drain', () => resolve());
    });
  let sentFrames = 0;
  let drop = opts.dropStream;
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  let lastWrite = Date.now();
  try {
    while (!closed) {
      if (reader.cursor < journal.oldestSeq - 1) {
        res.end(`${JSON.stringify({ type: 'error', error: 'output_offset_expired', oldest_available_seq: journal.oldestSeq })}\n`);
        return;
      }
      const budget = drop === null ? Infinity : drop.afterFrames - sentFrames;
      const { lines, lastSeq } = budget > 0 ? journal.linesAfter(reader.cursor, BATCH_BYTES, budget) : { lines: [], lastSeq: reader.cursor };
      if (lines.length > 0) {
        const okToWrite = res.write(lines.length === 1 ? (lines[0] as Buffer) : Buffer.concat(lines));
        sentFrames += lines.length;
        lastWrite = Date.now();
        reader.cursor = lastSeq;
        journal.advanced();
        if (!okToWrite && !closed) await drained();
        continue;
      }
      if (drop !== null && sentFrames >= drop.afterFrames) {
        if (drop.take()) {
          // Drill: let what was written reach the kernel, then cut the connection mid-stream.
          await new Promise<void>((resolve) => res.write('', () => resolve()));
          res.socket?.destroy();
          return;
        }
        drop = null;
        continue;
      }
      const exit = journal.exit;
      if (exit !== null && reader.cursor >= journal.newestSeq) {
        res.end(`${JSON.stringify({ type: 'exit', exit_code: exit.exit_code, signal: exit.signal })}\n`);
        return;
      }
      const idle = Date.now() - lastWrite;
      if (idle >= heartbeatMs) {
        res.write('{"type":"heartbeat"}\n');
        lastWrite = Date.now();
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        void journal.changed(heartbeatMs - idle).then(resolve);
      });
    }
  } finally {
    res.off('close', onClose);
    journal.detach(reader);
  }
}
