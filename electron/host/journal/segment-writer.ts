// Appends framed records to the newest segment: rotation at the size limit, fdatasync before
// anything counts as durable, and rollback of a failed write so later records never follow garbage.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { writeFully } from './compaction';
import { segmentPath, syncDir, type SegmentInfo } from './segment-files';

interface ActiveSegment { info: SegmentInfo; handle: FileHandle | null; broken: boolean }

export class SegmentWriter {
  private segments: SegmentInfo[];
  private active: ActiveSegment;
  private dirDirty = false;

  private constructor(
    private readonly dir: string,
    private readonly segmentBytes: number,
    segments: SegmentInfo[],
    active: ActiveSegment,
    private readonly report: (error: Error, context: string) => void,
  ) {
    this.segments = segments;
    this.active = active;
  }

  /** Continues the newest of `segments` (or starts segment 1). */
  static async open(dir: string, segmentBytes: number, existing: readonly SegmentInfo[], report: (error: Error, context: string) => void): Promise<SegmentWriter> {
    const segments = existing.map((s) => ({ ...s }));
    let info = segments.at(-1);
    if (!info) {
      info = { no: 1, size: 0 };
      segments.push(info);
    }
    const handle = await open(segmentPath(dir, info.no), 'a');
    await syncDir(dir);
    return new SegmentWriter(dir, segmentBytes, segments, { info, handle, broken: false }, report);
  }

  /** Segments as they are now, oldest first (copies). */
  list(): SegmentInfo[] {
    return this.segments.map((s) => ({ ...s }));
  }

  segmentCount(): number {
    return this.segments.length;
  }

  totalBytes(): number {
    return this.segments.reduce((sum, s) => sum + s.size, 0);
  }

  nextSegmentNo(): number {
    return this.active.info.no + 1;
  }

  /**
   * Writes a prefix of `frames` that fits the current segment (at least one frame, rotating first
   * if needed) and fdatasyncs it. Returns how many frames and bytes are now durable; throws if none are.
   */
  async writeChunk(frames: readonly { frame: Buffer }[]): Promise<{ count: number; bytes: number }> {
    const first = frames[0];
    if (!first) return { count: 0, bytes: 0 };
    if (this.active.broken || !this.active.handle || (this.active.info.size > 0 && this.active.info.size + first.frame.length > this.segmentBytes)) {
      await this.rotate();
    }
    const handle = this.active.handle;
    if (!handle) throw new Error('journal has no open segment');
    let count = 0;
    let bytes = 0;
    for (const item of frames) {
      if (count > 0 && this.active.info.size + bytes + item.frame.length > this.segmentBytes) break;
      count += 1;
      bytes += item.frame.length;
    }
    const before = this.active.info.size;
    try {
      await writeFully(handle, frames.slice(0, count).map((item) => item.frame), bytes);
    } catch (error) {
      await this.rollback(before);
      throw error;
    }
    this.active.info.size += bytes;
    try {
      await handle.datasync();
      if (this.dirDirty) await syncDir(this.dir);
      this.dirDirty = false;
    } catch (error) {
      // The chunk's fate on disk is unknown: the caller writes it again, into a fresh segment (a duplicate beats a loss).
      this.active.broken = true;
      throw error;
    }
    return { count, bytes };
  }

  /** Switches to a compacted segment that has been renamed into place; the old segments are the caller's to delete. */
  async adoptCompacted(info: SegmentInfo): Promise<void> {
    const previous = this.active;
    this.segments = [{ ...info }];
    const current = this.segments[0] ?? { ...info };
    this.active = { info: current, handle: null, broken: true };
    await this.closeHandle(previous.handle);
    try {
      this.active = { info: current, handle: await open(segmentPath(this.dir, info.no), 'a'), broken: false };
    } catch (error) {
      this.report(toError(error), 'reopening the compacted journal segment failed; appends go to a new segment');
    }
  }

  async close(): Promise<void> {
    const handle = this.active.handle;
    this.active = { ...this.active, handle: null, broken: true };
    await this.closeHandle(handle);
  }

  private async rollback(size: number): Promise<void> {
    try {
      await this.active.handle?.truncate(size);
    } catch (error) {
      this.active.broken = true;
      this.report(toError(error), 'could not cut a failed write off the journal segment; starting a new one');
    }
  }

  private async rotate(): Promise<void> {
    const previous = this.active;
    this.active = { info: previous.info, handle: null, broken: true };
    await this.closeHandle(previous.handle);
    const info = { no: previous.info.no + 1, size: 0 };
    const handle = await open(segmentPath(this.dir, info.no), 'a');
    info.size = (await handle.stat()).size;
    this.segments.push(info);
    this.active = { info, handle, broken: false };
    this.dirDirty = true;
  }

  private async closeHandle(handle: FileHandle | null): Promise<void> {
    try {
      await handle?.close();
    } catch (error) {
      this.report(toError(error), 'closing a journal segment failed');
    }
  }
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
