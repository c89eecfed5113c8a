// The host's durable journal: buffered appends written in batches and fdatasync'd, segment
// rotation, crash recovery at open, streaming replay, and compaction that never loses data.
import { mkdir, rm } from 'node:fs/promises';
import { acquireLock } from './lock';
import { encodeRecord, writeCompactedSegment, type CompactionPlan, type CompactionResult, type KeepRecord } from './compaction';
import { BASE_RECORD_TYPE, DROPPED_RECORD_TYPE, type JournalRecord } from './record';
import { recoverJournalDir, type RecoveryReport } from './recovery';
import { readSegment, segmentName, segmentPath, syncDir } from './segment-files';
import { SegmentWriter } from './segment-writer';

export interface JournalOptions {
  /** A segment is closed and a new one started once it would grow past this. Default 8 MiB. */
  segmentBytes?: number;
  /** When the journal grows past this, `autoCompact` is asked for a plan. Default 256 MiB. */
  maxBytes?: number;
  /** Appends are written and fdatasync'd at most this long after they are made. Default 50 ms. */
  flushIntervalMs?: number;
  /** Appends beyond this many unwritten bytes are dropped (and a `journal.dropped` record says so). Default 64 MiB. */
  maxPendingBytes?: number;
  /** A damaged record (skipped) or a torn tail (cut off at open). */
  onCorrupt?: (problem: string) => void;
  /** IO and usage errors; `append` never throws. Default: `process.emitWarning`. */
  onError?: (error: Error) => void;
  /**
   * Called when the journal exceeds `maxBytes`: return what to keep and the snapshot to write, or
   * `null` for "not now" (asked again after the next write). Records appended once the plan is
   * returned are written after the snapshot, so a synchronous plan never loses an append.
   */
  autoCompact?: () => CompactionPlan | null | Promise<CompactionPlan | null>;
  /** Told about every finished compaction (automatic or not). */
  onCompacted?: (result: CompactionResult) => void;
}

export interface JournalStats {
  segments: number;
  totalBytes: number;
  pendingRecords: number;
  pendingBytes: number;
  /** Records accepted by `append` since open, and how many of them are durable. */
  appendedRecords: number;
  durableRecords: number;
  /** Records dropped because the write buffer was full. */
  droppedRecords: number;
}

interface Pending { seq: number; frame: Buffer }
interface Waiter { seq: number; resolve: () => void; reject: (error: Error) => void }

const MiB = 1024 * 1024;
const EARLY_WRITE_BYTES = MiB;
const MAX_RETRY_MS = 5000;
const DEFAULT_SEGMENT_BYTES = 8 * MiB;

export class Journal {
  private readonly segmentBytes: number;
  private readonly maxBytes: number;
  private readonly intervalMs: number;
  private readonly maxPendingBytes: number;
  private readonly onCorrupt: (problem: string) => void;
  private readonly onError: (error: Error) => void;
  private readonly autoCompact: JournalOptions['autoCompact'];
  private readonly onCompacted: JournalOptions['onCompacted'];
  private pending: Pending[] = [];
  private pendingBytes = 0;
  private seq = 0;
  private durableSeq = 0;
  private waiters: Waiter[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private queuedWrite: Promise<void> = Promise.resolve();
  private writeQueued = false;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private lost = { records: 0, bytes: 0, from: 0, to: 0, total: 0 };
  private closing: Promise<void> | null = null;
  private replays = 0;
  private deferredDeletes: number[] = [];
  private compactAbove: number;
  private compactionRequested = false;
  /** Per planned compaction, the last record its plan covers: nothing later is written before it runs. */
  private plannedUpTo: number[] = [];

  private constructor(
    readonly dir: string,
    /** What recovery found and did at open (torn tail cut off, interrupted compaction finished). */
    readonly recovery: RecoveryReport,
    private readonly writer: SegmentWriter,
    private readonly releaseLock: () => Promise<void>,
    opts: JournalOptions,
  ) {
    this.segmentBytes = opts.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
    this.maxBytes = opts.maxBytes ?? 256 * MiB;
    this.intervalMs = opts.flushIntervalMs ?? 50;
    this.maxPendingBytes = opts.maxPendingBytes ?? 64 * MiB;
    this.onCorrupt = opts.onCorrupt ?? (() => undefined);
    this.onError = opts.onError ?? ((error) => process.emitWarning(error));
    this.autoCompact = opts.autoCompact;
    this.onCompacted = opts.onCompacted;
    this.compactAbove = this.maxBytes;
  }

  /** Opens (creating if needed) the journal in `dir`, taking its lock and recovering from a crash. */
  static async open(dir: string, opts: JournalOptions = {}): Promise<Journal> {
    await mkdir(dir, { recursive: true });
    const releaseLock = await acquireLock(dir);
    try {
      const recovery = await recoverJournalDir(dir, opts.onCorrupt ?? (() => undefined));
      let journal: Journal | null = null;
      const report = (error: Error, context: string): void => journal?.report(asError(error, context));
      const writer = await SegmentWriter.open(dir, opts.segmentBytes ?? DEFAULT_SEGMENT_BYTES, recovery.segments, report);
      journal = new Journal(dir, recovery, writer, releaseLock, opts);
      return journal;
    } catch (error) {
      await releaseLock();
      throw error;
    }
  }

  /**
   * Buffers a record; it is written within `flushIntervalMs`. Never throws: problems go to `onError`.
   * Returns whether the record was accepted; `false` means it was dropped (closed, unencodable, buffer full).
   */
  append(record: JournalRecord): boolean {
    if (this.closing) {
      this.report(new Error(`journal is closed; ${record.type} record dropped`));
      return false;
    }
    let frame: Buffer;
    try {
      frame = encodeRecord(record);
    } catch (error) {
      this.report(asError(error, `journal record ${record.type} dropped`));
      return false;
    }
    if (this.pendingBytes + frame.length > this.maxPendingBytes) {
      this.noteLost(record.t, frame.length);
      return false;
    }
    if (this.lost.records > 0) this.enqueueLostMarker();
    this.enqueue(frame);
    return true;
  }

  /** Resolves once every record appended before the call is on disk and fdatasync'd; rejects if it could not be. */
  flush(): Promise<void> {
    const target = this.seq;
    if (this.durableSeq >= target) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ seq: target, resolve, reject }));
    void this.kick();
    return done;
  }

  /**
   * Every intact record, oldest first, as of the call (pending appends are written first). Damaged
   * records are reported to `onCorrupt` and skipped. Compaction meanwhile defers deleting old segments.
   */
  async *replay(): AsyncGenerator<JournalRecord> {
    if (this.closing) throw new Error('journal is closed');
    await this.kick();
    // Appends held back for a planned compaction are written once it is done.
    while (this.plannedUpTo.length > 0 && !this.closing) {
      await this.chain;
      await this.kick();
    }
    const segments = this.writer.list();
    this.replays += 1;
    try {
      for (const segment of segments) {
        for await (const item of readSegment(segmentPath(this.dir, segment.no), segment.size)) {
          if (item.kind === 'record') {
            if (item.record.type !== BASE_RECORD_TYPE) yield item.record;
          } else {
            const what = item.kind === 'torn' ? `incomplete record of ${item.bytes} bytes` : item.problem;
            this.onCorrupt(`${segmentName(segment.no)} at byte ${item.offset}: ${what}; record skipped`);
          }
        }
      }
    } finally {
      this.replays -= 1;
      if (this.replays === 0 && this.deferredDeletes.length > 0) {
        const nos = this.deferredDeletes;
        this.deferredDeletes = [];
        void this.run(() => this.deleteSegments(nos));
      }
    }
  }

  /**
   * Rewrites the journal as: the old records `keep` keeps (or replaces), then `snapshot`, then
   * whatever is appended from now on. Crash-safe: the new segment is complete and durable before
   * any old segment is removed. A bare function is taken as `keep`.
   */
  compact(plan: CompactionPlan | KeepRecord): Promise<CompactionResult> {
    if (this.closing) return Promise.reject(new Error('journal is closed'));
    const resolved = typeof plan === 'function' ? { keep: plan } : plan;
    return this.compactCovering(resolved, this.seq);
  }

  /** Compacts with a plan that covers the records appended up to `upTo`; later ones follow its snapshot. */
  private compactCovering(plan: CompactionPlan, upTo: number): Promise<CompactionResult> {
    this.plannedUpTo.push(upTo);
    return this.run(async () => {
      try {
        return await this.compactNow(plan);
      } finally {
        this.plannedUpTo.splice(this.plannedUpTo.indexOf(upTo), 1);
        // Appends made after the plan were held back: write them now, after the compacted segment.
        if (this.pending.length > 0 && !this.closing) void this.kick();
      }
    });
  }

  stats(): JournalStats {
    return {
      segments: this.writer.segmentCount(),
      totalBytes: this.writer.totalBytes(),
      pendingRecords: this.pending.length,
      pendingBytes: this.pendingBytes,
      appendedRecords: this.seq,
      durableRecords: this.durableSeq,
      droppedRecords: this.lost.total,
    };
  }

  /** Writes what is pending, closes the segment and releases the lock. Idempotent. */
  dispose(): Promise<void> {
    if (this.closing) return this.closing;
    if (this.lost.records > 0) this.enqueueLostMarker();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closing = this.run(async () => {
      try {
        await this.writeOut();
      } catch (error) {
        this.writeFailed(error);
      }
      await this.writer.close();
      this.rejectWaiters(new Error('journal closed before these records could be written'));
      await this.releaseLock().catch((error: unknown) => this.report(asError(error, 'releasing the journal lock failed')));
    });
    return this.closing;
  }

  private enqueue(frame: Buffer): void {
    this.seq += 1;
    this.pending.push({ seq: this.seq, frame });
    this.pendingBytes += frame.length;
    if (this.pendingBytes >= EARLY_WRITE_BYTES) void this.kick();
    else this.arm(this.intervalMs);
  }

  private noteLost(t: number, bytes: number): void {
    if (this.lost.records === 0) {
      this.lost.from = t;
      this.report(new Error(`journal write buffer full (${this.pendingBytes} bytes unwritten); dropping records until it drains`));
    }
    this.lost.records += 1;
    this.lost.bytes += bytes;
    this.lost.to = t;
    this.lost.total += 1;
  }

  private enqueueLostMarker(): void {
    const { records, bytes, from, to } = this.lost;
    this.lost = { ...this.lost, records: 0, bytes: 0 };
    this.enqueue(encodeRecord({ t: Date.now(), type: DROPPED_RECORD_TYPE, data: { records, bytes, from, to } }));
  }

  private arm(delayMs: number): void {
    if (this.timer || this.closing) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.kick();
    }, delayMs);
    this.timer.unref();
  }

  /** Queues one write of everything pending (coalescing with a write already queued). */
  private kick(): Promise<void> {
    if (this.writeQueued) return this.queuedWrite;
    this.writeQueued = true;
    this.queuedWrite = this.run(async () => {
      this.writeQueued = false;
      try {
        await this.writeOut();
      } catch (error) {
        this.writeFailed(error);
      }
    });
    return this.queuedWrite;
  }

  /** Serialises every operation on the files. */
  private run<T>(op: () => Promise<T>): Promise<T> {
    const result = this.chain.then(op);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /**
   * Writes pending frames, chunk by chunk; a chunk counts as durable once fdatasync'd. Frames
   * appended after a planned compaction's plan wait until that compaction is done.
   */
  private async writeOut(): Promise<void> {
    for (;;) {
      const upTo = this.plannedUpTo.length > 0 ? Math.min(...this.plannedUpTo) : Number.POSITIVE_INFINITY;
      const later = upTo === Number.POSITIVE_INFINITY ? -1 : this.pending.findIndex((p) => p.seq > upTo);
      const frames = later === -1 ? this.pending : this.pending.slice(0, later);
      if (frames.length === 0) break;
      const { count, bytes } = await this.writer.writeChunk(frames);
      const last = this.pending[count - 1];
      this.pending.splice(0, count);
      this.pendingBytes -= bytes;
      if (last) this.durableSeq = last.seq;
      this.failures = 0;
      this.settleWaiters();
    }
    this.settleWaiters();
    this.checkSize();
  }

  private writeFailed(error: unknown): void {
    this.failures += 1;
    const err = asError(error, `journal write failed (attempt ${this.failures}, ${this.pending.length} records waiting)`);
    this.report(err);
    this.rejectWaiters(err);
    if (this.pending.length > 0) this.arm(Math.min(this.intervalMs * 2 ** this.failures, MAX_RETRY_MS));
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= this.durableSeq) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  private rejectWaiters(error: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }

  private async compactNow(plan: CompactionPlan): Promise<CompactionResult> {
    try {
      await this.writeOut();
    } catch (error) {
      this.writeFailed(error);
      throw error;
    }
    const old = this.writer.list();
    const result = await writeCompactedSegment(this.dir, old, this.writer.nextSegmentNo(), plan, this.onCorrupt);
    await this.writer.adoptCompacted({ no: result.segmentNo, size: result.bytesAfter });
    const nos = old.map((s) => s.no);
    if (this.replays > 0) this.deferredDeletes.push(...nos);
    else await this.deleteSegments(nos);
    if (result.bytesAfter > this.maxBytes) {
      this.report(new Error(`journal compaction kept ${result.bytesAfter} bytes, more than maxBytes ${this.maxBytes}`));
      this.compactAbove = result.bytesAfter + Math.max(this.segmentBytes, this.maxBytes / 4);
    } else {
      this.compactAbove = this.maxBytes;
    }
    try {
      this.onCompacted?.(result);
    } catch (error) {
      this.report(asError(error, 'onCompacted handler failed'));
    }
    return result;
  }

  private async deleteSegments(nos: readonly number[]): Promise<void> {
    try {
      for (const no of nos) await rm(segmentPath(this.dir, no), { force: true });
      await syncDir(this.dir);
    } catch (error) {
      this.report(asError(error, 'removing compacted journal segments failed; they are removed at the next open'));
    }
  }

  private checkSize(): void {
    const total = this.writer.totalBytes();
    if (total <= this.compactAbove || this.compactionRequested || this.closing) return;
    const autoCompact = this.autoCompact;
    if (!autoCompact) {
      this.report(new Error(`journal holds ${total} bytes, more than maxBytes ${this.maxBytes}, and no autoCompact is configured`));
      this.compactAbove = Number.POSITIVE_INFINITY;
      return;
    }
    this.compactionRequested = true;
    void (async () => {
      try {
        const planned = autoCompact();
        // A synchronous plan covers exactly the appends made before it returned (nothing runs in
        // between); an asynchronous one those made before it resolved.
        const plan = planned instanceof Promise ? await planned : planned;
        // null: not now (e.g. the owner is still replaying); the next write asks again.
        if (plan && !this.closing) await this.compactCovering(plan, this.seq);
      } catch (error) {
        this.compactAbove = this.writer.totalBytes() + this.segmentBytes;
        this.report(asError(error, 'automatic journal compaction failed'));
      } finally {
        this.compactionRequested = false;
      }
    })();
  }

  private report(error: Error): void {
    try {
      this.onError(error);
    } catch {
      // A failing error handler must not break the journal.
    }
  }
}

function asError(error: unknown, context: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${context}: ${message}`, { cause: error });
}
