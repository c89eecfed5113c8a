// Pure NDJSON framing and frame validation for `…/processes/:pid/connect` (§3).
import { CreateosError, messages } from './errors';

export const MAX_FRAME_CHARS = 1_048_576;
const NEWLINE = 0x0a;

function frameTooLarge(): CreateosError {
  return new CreateosError('protocol', messages.frameTooLarge);
}

function invalidFrame(): CreateosError {
  return new CreateosError('protocol', messages.invalidFrame);
}

/**
 * Incremental NDJSON parser: feed body chunks with push(), then call end() at EOF.
 * Yields one plain object per non-blank line; a non-object line or one longer than
 * `maxLineChars` throws (fatal). A final line without "\n" is accepted by end().
 */
export class NdjsonParser {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly maxLineChars: number = MAX_FRAME_CHARS) {}

  push(chunk: Uint8Array): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    let buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      const newline = buffer.indexOf(NEWLINE);
      if (newline === -1) break;
      const head = buffer.subarray(0, newline);
      buffer = buffer.subarray(newline + 1);
      let line: Buffer;
      if (this.pending.length === 0) {
        line = head;
      } else {
        this.pending.push(head);
        line = Buffer.concat(this.pending, this.pendingBytes + head.length);
        this.pending = [];
        this.pendingBytes = 0;
      }
      const frame = this.parseLine(line);
      if (frame !== undefined) out.push(frame);
    }
    if (buffer.length > 0) {
      this.pending.push(buffer);
      this.pendingBytes += buffer.length;
      // A UTF-16 code unit takes at most 3 UTF-8 bytes: past this, the line is surely too long.
      if (this.pendingBytes > this.maxLineChars * 3) throw frameTooLarge();
    }
    return out;
  }

  /** Flushes the final unterminated line, if any. */
  end(): Record<string, unknown>[] {
    if (this.pending.length === 0) return [];
    const line = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const frame = this.parseLine(line);
    return frame === undefined ? [] : [frame];
  }

  /** Bytes held for an incomplete line. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  private parseLine(line: Buffer): Record<string, unknown> | undefined {
    // Bytes ≥ chars, so the decode (and its length) is only needed near the limit.
    if (line.length > this.maxLineChars) {
      const text = this.decoder.decode(line);
      if (text.length > this.maxLineChars) throw frameTooLarge();
      return parseObject(text);
    }
    if (isBlank(line)) return undefined;
    return parseObject(this.decoder.decode(line));
  }
}

function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidFrame();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidFrame();
  return value as Record<string, unknown>;
}

export type OutputStreamName = 'stdout' | 'stderr';

export interface DataFrame {
  readonly type: 'data';
  readonly seq: number;
  readonly stream: OutputStreamName;
  readonly bytes: Buffer;
}

export interface ExitFrame {
  readonly type: 'exit';
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export interface HeartbeatFrame {
  readonly type: 'heartbeat';
}

export type ProcessFrame = DataFrame | ExitFrame | HeartbeatFrame;

const SIGNAL_NAME = /^SIG[A-Z0-9]{1,16}$/;

/**
 * Strict padded base64 to bytes; undefined when the text is not canonical base64. Node's decoder
 * skips characters it does not know, so re-encoding must give back exactly the same text.
 */
export function decodeStrictBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

export function isSignalName(value: unknown): value is string {
  return typeof value === 'string' && SIGNAL_NAME.test(value);
}

/** A data frame whose sequence is known but whose stream and payload are not yet validated. */
export interface DataFrameHeader {
  readonly type: 'data';
  readonly seq: number;
  readonly raw: Readonly<Record<string, unknown>>;
}

export type FrameHeader = DataFrameHeader | ExitFrame | HeartbeatFrame;

/**
 * Reads one parsed frame (§3) as far as ordering needs: a data frame's `seq` (an invalid one throws)
 * without judging its stream or payload, so the caller can drop a duplicate or fail on a gap first.
 * Exit, heartbeat, error and unknown frames are handled in full, as validateFrame does.
 */
export function readFrameHeader(frame: Record<string, unknown>): FrameHeader {
  switch (frame['type']) {
    case 'data': {
      const seq = frame['seq'];
      if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
        throw new CreateosError('protocol', messages.invalidSequence);
      }
      return { type: 'data', seq, raw: frame };
    }
    case 'exit': {
      const code = frame['exit_code'];
      const signal = frame['signal'];
      const exitCode = typeof code === 'number' && Number.isSafeInteger(code) ? code : null;
      const signalName = isSignalName(signal) ? signal : null;
      if (exitCode === null && signalName === null) throw new CreateosError('protocol', messages.exitMissing);
      return { type: 'exit', exitCode, signal: signalName };
    }
    case 'heartbeat':
      return { type: 'heartbeat' };
    case 'error': {
      if (frame['error'] === 'output_offset_expired') {
        const oldest = frame['oldest_available_seq'];
        const details = typeof oldest === 'number' && Number.isSafeInteger(oldest) && oldest >= 0 ? { oldestAvailableSeq: oldest } : {};
        throw new CreateosError('evicted', messages.evicted, details);
      }
      throw new CreateosError('protocol', messages.streamError);
    }
    default:
      throw new CreateosError('protocol', messages.unknownEvent);
  }
}

/** Validates the stream and strict base64 payload of a data frame that is kept. */
export function decodeDataFrame(header: DataFrameHeader): DataFrame {
  const stream = header.raw['stream'];
  const payload = header.raw['data_base64'];
  if ((stream !== 'stdout' && stream !== 'stderr') || typeof payload !== 'string') {
    throw new CreateosError('protocol', messages.invalidOutput);
  }
  const bytes = decodeStrictBase64(payload);
  if (bytes === undefined) throw new CreateosError('protocol', messages.invalidOutput);
  return { type: 'data', seq: header.seq, stream, bytes };
}

/**
 * Validates one parsed frame (§3) in full. Returns data, exit and heartbeat frames; throws the catalogue
 * error for an invalid data or exit frame, an `error` frame (eviction or other) and unknown types.
 */
export function validateFrame(frame: Record<string, unknown>): ProcessFrame {
  const header = readFrameHeader(frame);
  return header.type === 'data' ? decodeDataFrame(header) : header;
}
