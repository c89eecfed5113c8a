// Per-stream UTF-8 decoding across frame boundaries and bounded output tails (§3 "Capture").
import type { OutputStreamName } from './frames';
import { TextDecoder } from 'node:util';

export const DEFAULT_TAIL_CHARS = 4_194_304;

/** Decodes stdout and stderr separately, keeping partial UTF-8 sequences for the next frame. */
export class StreamTextDecoders {
  private decoders: Record<OutputStreamName, TextDecoder> = { stdout: newDecoder(), stderr: newDecoder() };

  decode(stream: OutputStreamName, bytes: Uint8Array): string {
    return this.decoders[stream].decode(bytes, { stream: true });
  }

  /** Ends both streams: an incomplete trailing sequence becomes U+FFFD. */
  flush(): Record<OutputStreamName, string> {
    const out = { stdout: this.decoders.stdout.decode(), stderr: this.decoders.stderr.decode() };
    this.decoders = { stdout: newDecoder(), stderr: newDecoder() };
    return out;
  }
}

function newDecoder(): TextDecoder {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
}

/** Keeps the last `limit` UTF-16 code units of appended text; never starts on a lone low surrogate. */
export class TextTail {
  private chunks: string[] = [];
  private length = 0;
  private head = 0;
  private dropped = false;

  constructor(private readonly limit: number = DEFAULT_TAIL_CHARS) {}

  append(text: string): void {
    if (text === '') return;
    this.chunks.push(text);
    this.length += text.length;
    if (this.length > this.limit) this.trim();
  }

  get truncated(): boolean {
    return this.dropped;
  }

  get size(): number {
    return this.length;
  }

  toString(): string {
    const text = this.chunks.slice(this.head).join('');
    this.chunks = [text];
    this.head = 0;
    return text;
  }

  private trim(): void {
    this.dropped = true;
    let excess = this.length - this.limit;
    while (excess > 0) {
      const first = this.chunks[this.head];
      if (first === undefined) break;
      if (first.length <= excess) {
        this.head += 1;
        excess -= first.length;
        this.length -= first.length;
        continue;
      }
      let cut = excess;
      // Do not keep the second half of a surrogate pair whose first half was dropped.
      const code = first.charCodeAt(cut);
      if (code >= 0xdc00 && code <= 0xdfff) cut += 1;
      this.chunks[this.head] = first.slice(cut);
      this.length -= cut;
      excess = 0;
    }
    if (this.head > 1024) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}

/** The captured output of one command: stdout and stderr tails. */
export class OutputCapture {
  readonly stdout: TextTail;
  readonly stderr: TextTail;

  constructor(limit: number = DEFAULT_TAIL_CHARS) {
    this.stdout = new TextTail(limit);
    this.stderr = new TextTail(limit);
  }

  append(stream: OutputStreamName, text: string): void {
    this[stream].append(text);
  }

  get truncated(): boolean {
    return this.stdout.truncated || this.stderr.truncated;
  }
}
