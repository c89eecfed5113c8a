// The host's tail of one process: bounded by bytes, with explicit truncation and gap markers.
// Subscribers get a replay of what is held, then batches of new entries.
import type { TailEntry } from '../../../shared/domain';

export const defaultTailBytes = 4 * 1024 * 1024;

export type TailListener = (entries: TailEntry[]) => void;

function entryBytes(entry: TailEntry): number {
  return entry.kind === 'text' ? Buffer.byteLength(entry.text) : 64;
}

export class TailBuffer {
  private entries: TailEntry[] = [];
  private bytes = 0;
  private droppedBytes = 0;
  private pending: TailEntry[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<TailListener>();
  private seq = 0;
  private exited = false;

  /**
   * @param onBatch always told about new entries (in batches), e.g. to journal them.
   */
  constructor(private readonly maxBytes = defaultTailBytes, private readonly batchMs = 20, private readonly onBatch: TailListener | null = null) {}

  /** The last output sequence number held (0 = none): where a re-attached stream resumes. */
  get lastSeq(): number {
    return this.seq;
  }

  /** True once an exit entry was recorded. */
  get hasExit(): boolean {
    return this.exited;
  }

  append(entry: TailEntry): void {
    this.hold(entry);
    this.pending.push(entry);
    if ((this.listeners.size > 0 || this.onBatch) && !this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), this.batchMs);
    } else if (this.listeners.size === 0 && !this.onBatch) {
      this.pending = [];
    }
  }

  /** Restores entries read back from the journal: held and replayed, never re-journaled. */
  restore(entries: readonly TailEntry[]): void {
    for (const entry of entries) this.hold(entry);
  }

  private hold(entry: TailEntry): void {
    if (entry.kind === 'text' && entry.seq > this.seq) this.seq = entry.seq;
    if (entry.kind === 'exit') this.exited = true;
    this.entries.push(entry);
    this.bytes += entryBytes(entry);
    this.trim(entry.at);
  }

  /** Everything held, oldest first; starts with a truncation marker when the bound dropped output. */
  snapshot(): TailEntry[] {
    return [...this.entries];
  }

  subscribe(listener: TailListener): () => void {
    this.flush();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.onBatch?.(batch);
    for (const listener of this.listeners) listener(batch);
  }

  dispose(): void {
    this.flush();
    this.listeners.clear();
  }

  private trim(at: number): void {
    if (this.bytes <= this.maxBytes) return;
    let removed = 0;
    let index = this.entries[0]?.kind === 'truncated' ? 1 : 0;
    while (this.bytes - removed > this.maxBytes * 0.9 && index < this.entries.length - 1) {
      const entry = this.entries[index];
      if (entry) removed += entryBytes(entry);
      index += 1;
    }
    const kept = this.entries.slice(index);
    this.droppedBytes += removed;
    this.bytes -= removed;
    this.entries = [{ kind: 'truncated', droppedBytes: this.droppedBytes, at }, ...kept];
  }
}
