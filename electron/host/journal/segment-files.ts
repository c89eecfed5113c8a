// Segment files on disk: names, listing, directory fsync, and a streaming reader that turns a
// segment's bytes into records, damaged lines and a possible torn tail.
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { scanFrame } from './frame';
import { parseRecord, type JournalRecord } from './record';

const SEGMENT_PATTERN = /^journal-(\d{6,})\.log$/;
const READ_CHUNK = 4 * 1024 * 1024;

export interface SegmentInfo {
  no: number;
  size: number;
}

export function segmentName(no: number): string {
  return `journal-${String(no).padStart(6, '0')}.log`;
}

export function segmentPath(dir: string, no: number): string {
  return join(dir, segmentName(no));
}

export function tmpSegmentPath(dir: string, no: number): string {
  return `${segmentPath(dir, no)}.tmp`;
}

export function isTmpSegment(name: string): boolean {
  return name.startsWith('journal-') && name.endsWith('.log.tmp');
}

/** Segments in `dir`, oldest first. */
export async function listSegments(dir: string): Promise<SegmentInfo[]> {
  const found: SegmentInfo[] = [];
  for (const name of await readdir(dir)) {
    const match = SEGMENT_PATTERN.exec(name);
    if (!match?.[1]) continue;
    const no = Number(match[1]);
    found.push({ no, size: (await stat(join(dir, name))).size });
  }
  return found.sort((a, b) => a.no - b.no);
}

/** Makes renames, creations and deletions in `dir` durable. A no-op where directories cannot be synced. */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw error;
  } finally {
    await handle?.close();
  }
}

export type SegmentItem =
  | { kind: 'record'; record: JournalRecord; frame: Buffer; offset: number; end: number }
  | { kind: 'corrupt'; offset: number; end: number; problem: string }
  /** Bytes at the end of the segment that do not form a complete line. */
  | { kind: 'torn'; offset: number; bytes: number };

/**
 * Streams the first `limit` bytes (default: all) of a segment. `frame` is a view of the record's raw
 * bytes in a read buffer that is never reused, so it stays valid.
 */
export async function* readSegment(path: string, limit = Number.POSITIVE_INFINITY): AsyncGenerator<SegmentItem> {
  const handle = await open(path, 'r');
  let position = 0;
  const readChunk = async (): Promise<Buffer> => {
    const want = Math.max(0, Math.min(READ_CHUNK, limit - position));
    if (want === 0) return Buffer.alloc(0);
    const chunk = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(chunk, 0, want, position);
    position += bytesRead;
    return chunk.subarray(0, bytesRead);
  };
  // The next chunk is read while this one is parsed.
  let next = readChunk();
  try {
    let carry: Buffer = Buffer.alloc(0);
    let base = 0;
    for (;;) {
      const chunk = await next;
      if (chunk.length === 0) break;
      next = readChunk();
      const buf = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      let pos = 0;
      for (;;) {
        const scan = scanFrame(buf, pos);
        if (scan.kind === 'incomplete') break;
        const offset = base + pos;
        if (scan.kind === 'corrupt') {
          yield { kind: 'corrupt', offset, end: base + scan.end, problem: scan.problem };
        } else {
          yield decode(scan.payload, buf.subarray(pos, scan.end), offset, base + scan.end);
        }
        pos = scan.end;
      }
      base += pos;
      carry = buf.subarray(pos);
    }
    if (carry.length > 0) yield { kind: 'torn', offset: base, bytes: carry.length };
  } finally {
    await next.catch(() => undefined);
    await handle.close();
  }
}

function decode(payload: Buffer, frame: Buffer, offset: number, end: number): SegmentItem {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    return { kind: 'corrupt', offset, end, problem: 'payload is not JSON' };
  }
  const record = parseRecord(value);
  if (!record) return { kind: 'corrupt', offset, end, problem: 'payload is not a journal record' };
  return { kind: 'record', record, frame, offset, end };
}

/** Reads only the first frame of a segment (enough to recognise a compacted segment's base record). */
export async function readFirstRecord(path: string): Promise<JournalRecord | null> {
  for await (const item of readSegment(path, 64 * 1024)) {
    return item.kind === 'record' ? item.record : null;
  }
  return null;
}
