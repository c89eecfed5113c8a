import { describe, expect, it } from 'vitest';
import type { TailEntry } from '../../../shared/domain';
import { renderTail } from './tail-text';

const text = (stream: 'stdout' | 'stderr', t: string, at: number): TailEntry => ({ kind: 'text', stream, text: t, seq: at, at });

describe('renderTail', () => {
  it('keeps stdout and stderr apart and puts loss markers on their own lines in both', () => {
    const entries: TailEntry[] = [
      text('stdout', 'one ', 1), text('stderr', 'err\n', 2), text('stdout', 'two', 3),
      { kind: 'gap', lostBytes: 1234, reason: 'output evicted', at: 4 },
      text('stdout', 'three\n', 5),
      { kind: 'truncated', droppedBytes: 77, at: 6 },
      { kind: 'gap', lostBytes: null, reason: 'stream broke', at: 7 },
      { kind: 'reconnect', count: 3, reason: 'connection reset', at: 8 },
      { kind: 'exit', exitCode: null, signal: 'SIGKILL', at: 9 },
    ];
    const { stdout, stderr } = renderTail(entries);
    const markers = [
      '[… 77 bytes truncated …]', '[… bytes lost: stream broke …]', '[… stream reconnected (3): connection reset …]', '[… process exited: no exit code, signal SIGKILL …]',
    ].join('\n');
    expect(stdout).toBe(`one two\n[… 1234 bytes lost: output evicted …]\nthree\n${markers}\n`);
    expect(stderr).toBe(`err\n[… 1234 bytes lost: output evicted …]\n${markers}\n`);
  });

  it('cuts to a window and says what was left out', () => {
    const entries = [text('stdout', 'early\n', 1), text('stdout', 'inside\n', 5), text('stdout', 'late\n', 9)];
    expect(renderTail(entries, { from: 4, to: 6 }).stdout).toBe(
      '[… earlier output outside the export window omitted …]\ninside\n[… later output outside the export window omitted …]\n',
    );
  });
});

describe('renderTail marker placement', () => {
  it('puts a reconnect or exit at the end of the line it interrupted, in each stream', () => {
    const entries: TailEntry[] = [
      text('stdout', 'abc', 1), text('stderr', 'e1\ne2', 2),
      { kind: 'reconnect', count: 1, reason: 'reset', at: 3 },
      text('stdout', 'def\nghi\n', 4), text('stderr', 'e3\n', 5),
      { kind: 'exit', exitCode: 0, signal: null, at: 6 },
    ];
    const { stdout, stderr } = renderTail(entries);
    expect(stdout).toBe('abcdef\n[… stream reconnected (1): reset …]\nghi\n[… process exited: exit code 0 …]\n');
    expect(stderr).toBe('e1\ne2e3\n[… stream reconnected (1): reset …]\n[… process exited: exit code 0 …]\n');
  });

  it('puts a pending reconnect before a later loss, and at the end when no line ends', () => {
    const entries: TailEntry[] = [
      text('stdout', 'abc', 1), { kind: 'reconnect', count: 1, reason: 'reset', at: 2 }, text('stdout', 'def', 3),
      { kind: 'gap', lostBytes: 5, reason: 'evicted', at: 4 }, text('stdout', 'x', 5), { kind: 'reconnect', count: 2, reason: 'reset', at: 6 },
    ];
    expect(renderTail(entries).stdout).toBe('abcdef\n[… stream reconnected (1): reset …]\n[… 5 bytes lost: evicted …]\nx\n[… stream reconnected (2): reset …]\n');
  });

  it('cuts to the window after joining, so the omitted-output lines frame the visible text', () => {
    const entries = [text('stdout', 'early ', 1), text('stdout', 'inside\n', 5), { kind: 'reconnect', count: 1, reason: 'r', at: 6 } as TailEntry, text('stdout', 'late\n', 9)];
    expect(renderTail(entries, { from: 4, to: 6 }).stdout).toBe(
      '[… earlier output outside the export window omitted …]\ninside\n[… stream reconnected (1): r …]\n[… later output outside the export window omitted …]\n',
    );
  });
});
