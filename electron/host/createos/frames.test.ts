import { describe, expect, it } from 'vitest';
import { CreateosError } from './errors';
import { decodeDataFrame, decodeStrictBase64, MAX_FRAME_CHARS, NdjsonParser, readFrameHeader, validateFrame } from './frames';

const b = (text: string): Buffer => Buffer.from(text, 'utf8');

function thrown(fn: () => unknown): CreateosError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CreateosError);
    return error as CreateosError;
  }
  throw new Error('expected a throw');
}

describe('NdjsonParser', () => {
  it('joins lines split across chunks, in order', () => {
    const parser = new NdjsonParser();
    expect(parser.push(b('{"a":1}\n{"b"'))).toEqual([{ a: 1 }]);
    expect(parser.push(b(':2'))).toEqual([]);
    expect(parser.push(b('}\n{"c":3}\n'))).toEqual([{ b: 2 }, { c: 3 }]);
    expect(parser.end()).toEqual([]);
  });

  it('splits a multi-byte character across chunks without damage', () => {
    const parser = new NdjsonParser();
    const line = b('{"t":"é€😀"}\n');
    const out = [...parser.push(line.subarray(0, 7)), ...parser.push(line.subarray(7, 9)), ...parser.push(line.subarray(9))];
    expect(out).toEqual([{ t: 'é€😀' }]);
  });

  it('skips blank lines (including CR and spaces) and accepts CRLF', () => {
    const parser = new NdjsonParser();
    expect(parser.push(b('\n\r\n  \n{"a":1}\r\n\n'))).toEqual([{ a: 1 }]);
  });

  it('accepts a final unterminated line at end only', () => {
    const parser = new NdjsonParser();
    expect(parser.push(b('{"a":1}\n{"type":"exit"'))).toEqual([{ a: 1 }]);
    expect(parser.push(b(',"exit_code":0}'))).toEqual([]);
    expect(parser.end()).toEqual([{ type: 'exit', exit_code: 0 }]);
    expect(parser.end()).toEqual([]);
  });

  it('treats non-object lines as fatal', () => {
    for (const line of ['[1,2]', '"text"', '42', 'null', 'true', '{"a":', 'not json']) {
      const error = thrown(() => new NdjsonParser().push(b(`${line}\n`)));
      expect(error.message).toBe('CreateOS returned an invalid process frame.');
    }
    expect(new NdjsonParser().push(b('{"a":1'))).toEqual([]);
  });

  it('accepts a line of exactly the limit and rejects one over it', () => {
    const filler = (n: number): string => `{"x":"${'a'.repeat(n - 8)}"}`;
    expect(filler(MAX_FRAME_CHARS)).toHaveLength(MAX_FRAME_CHARS);
    expect(new NdjsonParser().push(b(`${filler(MAX_FRAME_CHARS)}\n`))).toHaveLength(1);
    expect(thrown(() => new NdjsonParser().push(b(`${filler(MAX_FRAME_CHARS + 1)}\n`))).message).toBe('CreateOS process frame is too large.');
    const atEnd = new NdjsonParser();
    atEnd.push(b(filler(MAX_FRAME_CHARS + 1)));
    expect(thrown(() => atEnd.end()).message).toBe('CreateOS process frame is too large.');
  });

  it('fails early on an unterminated line that can only be oversize, without buffering forever', () => {
    const parser = new NdjsonParser(10);
    expect(parser.push(b('{"x":"aaaaaaaaaaaaaa'))).toEqual([]);
    expect(parser.bufferedBytes).toBe(20);
    expect(thrown(() => parser.push(b('a'.repeat(11)))).message).toBe('CreateOS process frame is too large.');
  });

  it('counts characters, not bytes, against the limit', () => {
    const parser = new NdjsonParser(12);
    expect(parser.push(b('{"t":"ééé"}\n'))).toEqual([{ t: 'ééé' }]);
  });
});

describe('validateFrame', () => {
  it('decodes data frames', () => {
    const frame = validateFrame({ type: 'data', seq: 1, stream: 'stderr', data_base64: Buffer.from('hi').toString('base64') });
    expect(frame).toEqual({ type: 'data', seq: 1, stream: 'stderr', bytes: Buffer.from('hi') });
  });

  it('rejects bad sequence numbers', () => {
    for (const seq of [0, -1, 1.5, '1', undefined, Number.MAX_SAFE_INTEGER + 2]) {
      expect(thrown(() => validateFrame({ type: 'data', seq, stream: 'stdout', data_base64: '' })).message).toBe('CreateOS process sequence is invalid.');
    }
  });

  it('rejects pty, unknown streams and non-strict base64', () => {
    for (const frame of [
      { stream: 'pty', data_base64: 'aGk=' },
      { stream: 'stdin', data_base64: 'aGk=' },
      { stream: 'stdout', data_base64: 'aGk' },
      { stream: 'stdout', data_base64: 'aGk=\n' },
      { stream: 'stdout', data_base64: 'a-k=' },
      { stream: 'stdout', data_base64: 'aG=k' },
      { stream: 'stdout', data_base64: 42 },
      { stream: 'stdout' },
    ]) {
      expect(thrown(() => validateFrame({ type: 'data', seq: 1, ...frame })).message).toBe('CreateOS process output is invalid.');
    }
    expect(decodeStrictBase64('')).toEqual(Buffer.alloc(0));
  });

  it('needs at least one valid exit status', () => {
    expect(validateFrame({ type: 'exit', exit_code: 0 })).toEqual({ type: 'exit', exitCode: 0, signal: null });
    expect(validateFrame({ type: 'exit', exit_code: null, signal: 'SIGTERM' })).toEqual({ type: 'exit', exitCode: null, signal: 'SIGTERM' });
    expect(validateFrame({ type: 'exit', signal: 'SIGKILL' })).toEqual({ type: 'exit', exitCode: null, signal: 'SIGKILL' });
    for (const frame of [{}, { exit_code: null, signal: null }, { exit_code: '1' }, { exit_code: 1.5 }, { signal: 'TERM' }, { signal: 9 }]) {
      expect(thrown(() => validateFrame({ type: 'exit', ...frame })).message).toBe('CreateOS process exit status is missing.');
    }
  });

  it('ignores heartbeats', () => {
    expect(validateFrame({ type: 'heartbeat' })).toEqual({ type: 'heartbeat' });
  });

  it('maps error frames: eviction is explicit, anything else is a stream error', () => {
    const evicted = thrown(() => validateFrame({ type: 'error', error: 'output_offset_expired', oldest_available_seq: 17 }));
    expect(evicted.message).toBe('CreateOS process output was evicted before it could be read.');
    expect(evicted.code).toBe('evicted');
    expect(evicted.oldestAvailableSeq).toBe(17);
    const other = thrown(() => validateFrame({ type: 'error', error: 'boom SECRET' }));
    expect(other.message).toBe('CreateOS process stream reported an error.');
    expect(other.message).not.toContain('SECRET');
  });

  it('rejects unknown or missing types', () => {
    for (const frame of [{ type: 'stdout' }, {}, { type: 7 }]) {
      expect(thrown(() => validateFrame(frame)).message).toBe('CreateOS returned an unknown process event.');
    }
  });
});

describe('readFrameHeader and decodeDataFrame', () => {
  it('reads a data frame\'s seq without judging its stream or payload', () => {
    const raw = { type: 'data', seq: 4, stream: 'pty', data_base64: '!!' };
    const header = readFrameHeader(raw);
    expect(header).toEqual({ type: 'data', seq: 4, raw });
    expect(thrown(() => readFrameHeader({ type: 'data', seq: '4', stream: 'stdout', data_base64: '' })).message).toBe('CreateOS process sequence is invalid.');
  });

  it('decodes the stream and payload of a kept frame, strictly', () => {
    const ok = readFrameHeader({ type: 'data', seq: 2, stream: 'stdout', data_base64: 'aGk=' });
    expect(ok.type === 'data' ? decodeDataFrame(ok) : undefined).toEqual({ type: 'data', seq: 2, stream: 'stdout', bytes: Buffer.from('hi') });
    for (const frame of [{ stream: 'pty', data_base64: 'aGk=' }, { stream: 'stdout', data_base64: 'aGk' }, { stream: 'stderr' }]) {
      const header = readFrameHeader({ type: 'data', seq: 2, ...frame });
      expect(thrown(() => (header.type === 'data' ? decodeDataFrame(header) : undefined)).message).toBe('CreateOS process output is invalid.');
    }
  });

  it('treats exit, heartbeat, error and unknown frames as validateFrame does', () => {
    expect(readFrameHeader({ type: 'exit', exit_code: 2 })).toEqual({ type: 'exit', exitCode: 2, signal: null });
    expect(readFrameHeader({ type: 'heartbeat' })).toEqual({ type: 'heartbeat' });
    expect(thrown(() => readFrameHeader({ type: 'exit' })).message).toBe('CreateOS process exit status is missing.');
    expect(thrown(() => readFrameHeader({ type: 'error', error: 'output_offset_expired' })).code).toBe('evicted');
    expect(thrown(() => readFrameHeader({ type: 'nope' })).message).toBe('CreateOS returned an unknown process event.');
  });
});

describe('decodeStrictBase64', () => {
  it('accepts canonical padded base64 only', () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from('a'), Buffer.from('ab'), Buffer.from('abc'), Buffer.from([0, 255, 128, 7, 9])]) {
      expect(decodeStrictBase64(bytes.toString('base64'))).toEqual(bytes);
    }
    for (const text of ['YQ', 'YQ=', 'Y===', '====', 'YR==', 'YWJ=x', 'YW Jj', 'YW\nJj', 'YWJj\n', 'YW-j', 'YW_j', '!!!!', 'YWJjZA']) {
      expect(decodeStrictBase64(text), text).toBeUndefined();
    }
  });
});
