// On-disk framing of one journal record: a single line
//   <payload length, 8 hex digits> SP <CRC32 of the payload, 8 hex digits> SP <JSON payload> LF
// JSON.stringify never emits a raw LF, so every record is exactly one line: a damaged record can be
// skipped by resynchronising on the next LF, and a torn tail is simply an incomplete last line.
import { crc32 } from 'node:zlib';

export const HEADER_BYTES = 18;
const SPACE = 0x20;
const LF = 0x0a;
const MAX_PAYLOAD = 0xffff_ffff;

/** Frames an already-serialised JSON payload. Throws if the payload is too large to frame. */
export function encodeFrame(json: string): Buffer {
  const length = Buffer.byteLength(json, 'utf8');
  if (length > MAX_PAYLOAD) throw new RangeError(`journal record of ${length} bytes exceeds the 4 GiB frame limit`);
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length + 1);
  frame.write(json, HEADER_BYTES, 'utf8');
  writeHex(frame, 0, length);
  frame[8] = SPACE;
  writeHex(frame, 9, crc32(frame.subarray(HEADER_BYTES, HEADER_BYTES + length)));
  frame[17] = SPACE;
  frame[HEADER_BYTES + length] = LF;
  return frame;
}

export type FrameScan =
  /** A well-formed frame whose CRC matches; `end` is the offset just past its LF. */
  | { kind: 'frame'; payload: Buffer; end: number }
  /** A damaged line, skipped up to and including its LF. */
  | { kind: 'corrupt'; end: number; problem: string }
  /** Not enough bytes to decide: either more are coming or this is a torn tail. */
  | { kind: 'incomplete' };

/** Decodes the frame starting at `pos` in `buf`. Pure; never throws. */
export function scanFrame(buf: Buffer, pos: number): FrameScan {
  const length = headerLength(buf, pos);
  if (length === null) {
    const lf = buf.indexOf(LF, pos);
    if (lf < 0) return { kind: 'incomplete' };
    return { kind: 'corrupt', end: lf + 1, problem: 'malformed frame header' };
  }
  const start = pos + HEADER_BYTES;
  const expectedLf = start + length;
  const lf = buf.indexOf(LF, start);
  if (lf < 0) return { kind: 'incomplete' };
  if (lf !== expectedLf) return { kind: 'corrupt', end: lf + 1, problem: `frame length ${length} does not match the line (${lf - start} bytes)` };
  const payload = buf.subarray(start, expectedLf);
  const expectedCrc = readHex(buf, pos + 9);
  if (expectedCrc === null || crc32(payload) !== expectedCrc) return { kind: 'corrupt', end: lf + 1, problem: 'CRC mismatch' };
  return { kind: 'frame', payload, end: lf + 1 };
}

function headerLength(buf: Buffer, pos: number): number | null {
  if (buf.length - pos < HEADER_BYTES) return null;
  if (buf[pos + 8] !== SPACE || buf[pos + 17] !== SPACE) return null;
  if (readHex(buf, pos + 9) === null) return null;
  return readHex(buf, pos);
}

const HEX = '0123456789abcdef';

function writeHex(buf: Buffer, at: number, value: number): void {
  for (let i = 7; i >= 0; i -= 1) {
    buf[at + i] = HEX.charCodeAt(value & 0xf);
    value >>>= 4;
  }
}

function readHex(buf: Buffer, at: number): number | null {
  let value = 0;
  for (let i = 0; i < 8; i += 1) {
    const c = buf[at + i];
    let digit: number;
    if (c === undefined) return null;
    if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
    else return null;
    value = value * 16 + digit;
  }
  return value;
}
