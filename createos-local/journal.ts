// Bounded output journal of one managed process. stdout and stderr share one sequence counter
// starting at 1; each frame holds at most FRAME_MAX raw bytes and is serialised once, as the
// NDJSON line that every reader sends. Beyond the byte cap the oldest frames are evicted, except
// that a reader attached to a live stream holds back eviction (the producer is paused instead)
// unless the cap was forced by the `evict` drill.

export const FRAME_MAX = 64 * 1024;

export type StreamName = 'stdout' | 'stderr';

interface Frame {
  seq: number;
  size: number;
  line: Buffer;
}

export interface JournalReader {
  cursor: number;
}

export interface ExitStatus {
  exit_code: number | null;
  signal: string | null;
}

export class OutputJournal {
  private frames: Array<Frame | undefined> = [];
  private head = 0;
  private retained = 0;
  private newest = 0;
  private forced = false;
  private waiters = new Set<() => void>();
  private readonly readers = new Set<JournalReader>();
  private exitStatus: ExitStatus | null = null;
  /** Called with true when the producer should pause, false when it may resume. */
  onPressure: (paused: boolean) => void = () => undefined;
  private pressured = false;

  constructor(private cap: number) {}

  get newestSeq(): number {
    return this.newest;
  }

  get oldestSeq(): number {
    const first = this.frames[this.head];
    return first === undefined ? this.newest + 1 : first.seq;
  }

  get bytes(): number {
    return this.retained;
  }

  get exit(): ExitStatus | null {
    return this.exitStatus;
  }

  get capBytes(): number {
    return this.cap;
  }

  append(stream: StreamName, chunk: Buffer): void {
    if (this.exitStatus !== null) return;
    for (let off = 0; off < chunk.length; off += FRAME_MAX) {
      const part = chunk.subarray(off, Math.min(chunk.length, off + FRAME_MAX));
      this.newest += 1;
      const line = Buffer.from(`{"type":"data","seq":${this.newest},"stream":"${stream}","data_base64":"${part.toString('base64')}"}\n`);
      this.frames.push({ seq: this.newest, size: part.length, line });
      this.retained += part.length;
    }
    this.evict();
    this.wake();
  }

  finish(status: ExitStatus): void {
    if (this.exitStatus !== null) return;
    this.exitStatus = status;
    this.wake();
  }

  /** Shrinks (or grows) the cap; `forced` evicts even what attached readers have not read. */
  setCap(bytes: number, forced: boolean): void {
    this.cap = bytes;
    this.forced = this.forced || forced;
    this.evict();
    this.wake();
  }

  attach(reader: JournalReader): void {
    this.readers.add(reader);
  }

  detach(reader: JournalReader): void {
    this.readers.delete(reader);
    this.evict();
  }

  /** A reader moved its cursor: eviction held back for it may now proceed. */
  advanced(): void {
    this.evict();
  }

  /** Serialised frames with seq > after, up to about maxBytes of lines (at least one frame). */
  linesAfter(after: number, maxBytes: number, maxFrames = Infinity): { lines: Buffer[]; lastSeq: number } {
    const lines: Buffer[] = [];
    let lastSeq = after;
    let total = 0;
    let i = this.head + Math.max(0, after + 1 - this.oldestSeq);
    for (; i < this.frames.length && lines.length < maxFrames; i++) {
      const f = this.frames[i];
      if (f === undefined) break;
      if (lines.length > 0 && total + f.line.length > maxBytes) break;
      lines.push(f.line);
      total += f.line.length;
      lastSeq = f.seq;
    }
    return { lines, lastSeq };
  }

  /** Resolves on the next append, exit, cap change, or after `ms`. */
  changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private evict(): void {
    let minCursor = Infinity;
    if (!this.forced) for (const r of this.readers) minCursor = Math.min(minCursor, r.cursor);
    while (this.retained > this.cap) {
      const first = this.frames[this.head];
      if (first === undefined) break;
      if (first.seq > minCursor) break;
      this.retained -= first.size;
      this.frames[this.head] = undefined;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
    const pressured = this.retained > this.cap && this.exitStatus === null;
    if (pressured !== this.pressured) {
      this.pressured = pressured;
      this.onPressure(pressured);
    }
  }
}
