// Brings a journal directory to a consistent state at open: finishes or abandons an interrupted
// compaction and cuts off a torn tail of the newest segment. Nothing else is ever removed.
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_RECORD_TYPE } from './record';
import { isTmpSegment, listSegments, readFirstRecord, readSegment, segmentName, segmentPath, syncDir, type SegmentInfo } from './segment-files';

export interface RecoveryReport {
  /** Segments in use after recovery, oldest first (possibly empty). */
  segments: SegmentInfo[];
  /** Bytes of a torn tail that were cut off the newest segment (0 if none). */
  tornBytes: number;
  /** Segments superseded by a finished compaction and removed now. */
  removedSegments: number;
}

export async function recoverJournalDir(dir: string, onCorrupt: (problem: string) => void): Promise<RecoveryReport> {
  // A compaction that crashed before its rename leaves only a temporary file: the old segments are intact.
  for (const name of await readdir(dir)) {
    if (isTmpSegment(name)) await rm(join(dir, name), { force: true });
  }

  let segments = await listSegments(dir);
  const base = await findNewestBase(dir, segments);
  let removedSegments = 0;
  if (base !== null) {
    // A compaction renamed its segment into place but crashed before removing what it replaces.
    for (const old of segments.filter((s) => s.no < base)) {
      await rm(segmentPath(dir, old.no), { force: true });
      removedSegments += 1;
    }
    segments = segments.filter((s) => s.no >= base);
  }
  await syncDir(dir);

  const last = segments.at(-1);
  let tornBytes = 0;
  if (last) {
    const goodEnd = await lastGoodEnd(segmentPath(dir, last.no));
    if (goodEnd < last.size) {
      tornBytes = last.size - goodEnd;
      onCorrupt(`${segmentName(last.no)}: torn tail of ${tornBytes} bytes at byte ${goodEnd} ignored and cut off`);
      const handle = await open(segmentPath(dir, last.no), 'r+');
      try {
        await handle.truncate(goodEnd);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      last.size = goodEnd;
    }
  }
  return { segments, tornBytes, removedSegments };
}

async function findNewestBase(dir: string, segments: readonly SegmentInfo[]): Promise<number | null> {
  for (let i = segments.length - 1; i >= 0; i -= 1) {
    const segment = segments[i];
    if (!segment) continue;
    const first = await readFirstRecord(segmentPath(dir, segment.no));
    if (first?.type === BASE_RECORD_TYPE) return segment.no;
  }
  return null;
}

/**
 * Offset just past the last intact record. Damaged lines before it are left for replay to report;
 * everything after it (an incomplete line, or damaged lines with no intact record behind them) is
 * what a crash in the middle of a write leaves, and is the torn tail.
 */
async function lastGoodEnd(path: string): Promise<number> {
  let end = 0;
  for await (const item of readSegment(path)) {
    if (item.kind === 'record') end = item.end;
  }
  return end;
}
