import { describe, expect, it } from 'vitest';
import { OutputCapture, StreamTextDecoders, TextTail } from './output';

describe('StreamTextDecoders', () => {
  it('decodes UTF-8 split across frames, per stream', () => {
    const decoders = new StreamTextDecoders();
    const euro = Buffer.from('€', 'utf8'); // e2 82 ac
    const smile = Buffer.from('😀', 'utf8'); // 4 bytes
    expect(decoders.decode('stdout', euro.subarray(0, 1))).toBe('');
    // stderr interleaved between the halves must not disturb stdout's pending bytes
    expect(decoders.decode('stderr', smile.subarray(0, 2))).toBe('');
    expect(decoders.decode('stdout', Buffer.concat([euro.subarray(1), Buffer.from('x')]))).toBe('€x');
    expect(decoders.decode('stderr', smile.subarray(2))).toBe('😀');
  });

  it('flushes an incomplete tail as U+FFFD', () => {
    const decoders = new StreamTextDecoders();
    expect(decoders.decode('stdout', Buffer.from([0xe2, 0x82]))).toBe('');
    expect(decoders.flush()).toEqual({ stdout: '\uFFFD', stderr: '' });
  });
});

describe('TextTail', () => {
  it('keeps the last N characters and reports truncation', () => {
    const tail = new TextTail(5);
    tail.append('abc');
    expect(tail.truncated).toBe(false);
    tail.append('defg');
    expect(tail.toString()).toBe('cdefg');
    expect(tail.truncated).toBe(true);
    tail.append('hijklmnop');
    expect(tail.toString()).toBe('lmnop');
  });

  it('never starts with half a surrogate pair', () => {
    const tail = new TextTail(2);
    tail.append('a😀b'); // a, \ud83d, \ude00, b
    expect(tail.toString()).toBe('b');
  });

  it('handles many small appends', () => {
    const tail = new TextTail(1000);
    for (let i = 0; i < 5000; i += 1) tail.append('x');
    expect(tail.toString()).toHaveLength(1000);
  });
});

describe('OutputCapture', () => {
  it('truncation of either stream sets outputTruncated', () => {
    const capture = new OutputCapture(3);
    capture.append('stdout', 'ab');
    capture.append('stderr', 'abcd');
    expect(capture.truncated).toBe(true);
    expect(capture.stdout.toString()).toBe('ab');
    expect(capture.stderr.toString()).toBe('bcd');
  });
});
