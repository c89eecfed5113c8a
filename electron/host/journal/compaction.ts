// Writes a compacted segment: a base record, the old records the caller keeps, then a snapshot.
// It is built in a temporary file, fsynced, then renamed into place, so a crash at any point leaves
// either the old segments (temporary file discarded at open) or the complete new segment (older
// segments removed at open). Old segments are deleted only after the rename is durable.
import { open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { encodeFrame } from './frame';
import { BASE_RECORD_TYPE, isReservedType, type JournalRecord } from './record';
import { readSegment, segmentName, segmentPath, syncDir, tmpSegmentPath, type SegmentInfo } from './segment-files';

/** Decides the fate of an old record: `false` drops it, `true` keeps it, a record replaces it. */
export type KeepRecord = (record: JournalRecord) => boolean | JournalRecord;

export interface CompactionPlan {
  /** Applied to every old record, in order; omitted = drop every old record. */
  keep?: KeepRecord;
  /** Written after the kept records: the state that makes the dropped records unnecessary. */
  snapshot?: readonly JournalRecord[];
}

export interface CompactionResult {
  segmentNo: number;
  bytesBefore: number;
  bytesAfter: number;
  kept: number;
  dropped: number;
  snapshotRecords: number;
}

const WRITE_BATCH = 1024 * 1024;

/** Encodes a record for the journal, refusing the journal's own record types. */
export function encodeRecord(record: JournalRecord): Buffer {
  if (isReservedType(record.type)) throw new Error(`journal record type ${record.type} is reserved`);
  return encodeFrame(JSON.stringify(record));
}

export async function writeCompactedSegment(
  dir: string,
  old: readonly SegmentInfo[],
  newNo: number,
  plan: CompactionPlan,
  onCorrupt: (problem: string) => void,
): Promise<CompactionResult> {
  const snapshot = (plan.snapshot ?? []).map(encodeRecord);
  const tmp = tmpSegmentPath(dir, newNo);
  const handle = await open(tmp, 'w');
  const out = new BatchWriter(handle);
  let kept = 0;
  let dropped = 0;
  try {
    await out.write(encodeFrame(JSON.stringify({ t: Date.now(), type: BASE_RECORD_TYPE, data: { supersedes: old.map((s) => s.no) } })));
    for (const segment of old) {
      for await (const item of readSegment(segmentPath(dir, segment.no), segment.size)) {
        if (item.kind === 'corrupt' || item.kind === 'torn') {
          onCorrupt(`${segmentName(segment.no)} at byte ${item.offset}: ${item.kind === 'torn' ? 'torn record' : item.problem}; dropped by compaction`);
          continue;
        }
        if (item.record.type === BASE_RECORD_TYPE) continue;
        const verdict = plan.keep ? plan.keep(item.record) : false;
        if (verdict === false) {
          dropped += 1;
          continue;
        }
        kept += 1;
        await out.write(verdict === true ? item.frame : encodeRecord(verdict));
      }
    }
    for (const frame of snapshot) await out.write(frame);
    await out.end();
    await handle.datasync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(tmp, segmentPath(dir, newNo));
  await syncDir(dir);
  return {
    segmentNo: newNo,
    bytesBefore: old.reduce((sum, s) => sum + s.size, 0),
    bytesAfter: out.bytes,
    kept,
    dropped,
    snapshotRecords: snapshot.length,
  };
}

class BatchWriter {
  bytes = 0;
  private batch: Buffer[] = [];
  private batchBytes = 0;

  constructor(private readonly handle: FileHandle) {}

  async write(frame: Buffer): Promise<void> {
    this.batch.push(frame);
    this.batchBytes += frame.length;
    if (this.batchBytes >= WRITE_BATCH) await this.end();
  }

  async end(): Promise<void> {
    if (this.batch.length === 0) return;
    await writeFully(this.handle, this.batch, this.batchBytes);
    this.bytes += this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
  }
}

/** Writes every buffer or throws; a short write is an error. */
export async function writeFully(handle: FileHandle, buffers: readonly Buffer[], total: number): Promise<void> {
  const { bytesWritten } = await handle.writev(buffers as Buffer[]);
  if (bytesWritten !== total) throw new Error(`short write: ${bytesWritten} of ${total} bytes`);
}
