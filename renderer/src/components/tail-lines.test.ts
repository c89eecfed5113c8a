import { describe, expect, it } from 'vitest';
import { toTailLines } from './tail-lines';

describe('toTailLines', () => {
  it('joins a line split across chunks and keeps streams apart', () => {
    const lines = toTailLines([
      { kind: 'text', stream: 'stdout', text: 'he', seq: 1, at: 1 },
      { kind: 'text', stream: 'stderr', text: 'warn\n', seq: 2, at: 2 },
      { kind: 'text', stream: 'stdout', text: 'llo\nworld\n', seq: 3, at: 3 },
    ]);
    expect(lines.map((l) => (l.kind === 'text' ? `${l.stream}:${l.text}` : l.text))).toEqual(['stdout:hello', 'stderr:warn', 'stdout:world']);
  });

  it('renders losses as explicit markers', () => {
    const lines = toTailLines([{ kind: 'gap', lostBytes: 4096, reason: 'output evicted', at: 1 }]);
    expect(lines[0]).toMatchObject({ kind: 'marker', tone: 'gap', text: '[4096 bytes lost: output evicted]' });
  });
});
