import { describe, expect, it } from 'vitest';
import type { TailEntry } from '../../../shared/domain';
import { appendTailEntries, defaultTailLimits, emptyTailLines, toTailLines, type TailLine, type TailLines } from './tail-lines';

const text = (stream: 'stdout' | 'stderr', value: string, seq: number): TailEntry => ({ kind: 'text', stream, text: value, seq, at: seq });
const show = (lines: readonly TailLine[]): string[] => lines.map((l) => (l.kind === 'text' ? `${l.stream}:${l.text}` : l.text));

describe('toTailLines', () => {
  it('joins a line split across chunks and keeps streams apart', () => {
    const lines = toTailLines([text('stdout', 'he', 1), text('stderr', 'warn\n', 2), text('stdout', 'llo\nworld\n', 3)]);
    expect(show(lines)).toEqual(['stdout:hello', 'stderr:warn', 'stdout:world']);
  });

  it('never glues a partial line onto the other stream', () => {
    const lines = toTailLines([text('stdout', 'a', 1), text('stderr', 'x\n', 2), text('stdout', 'b', 3), text('stdout', 'c\n', 4), text('stderr', 'y\n', 5)]);
    expect(show(lines)).toEqual(['stdout:abc', 'stderr:x', 'stderr:y']);
  });

  it('keeps empty lines and ignores empty chunks', () => {
    expect(show(toTailLines([text('stdout', '\n\nz\n', 1), text('stdout', '', 2)]))).toEqual(['stdout:', 'stdout:', 'stdout:z']);
  });

  it('renders losses, truncation, reconnects and exits as explicit markers', () => {
    const lines = toTailLines([
      { kind: 'gap', lostBytes: 4096, reason: 'output evicted', at: 1 },
      { kind: 'truncated', droppedBytes: 10, at: 2 },
      { kind: 'reconnect', count: 2, reason: 'socket closed', at: 3 },
      { kind: 'exit', exitCode: null, signal: 'SIGKILL', at: 4 },
    ]);
    expect(lines[0]).toMatchObject({ kind: 'marker', tone: 'gap', text: '[4096 bytes lost: output evicted]' });
    expect(show(lines).slice(1)).toEqual([
      '[10 bytes truncated: oldest output dropped from this tail]',
      '[stream reconnected (2): socket closed]',
      '[exited on SIGKILL]',
    ]);
  });

  it('closes partial lines at a gap, so text after a loss starts a new line', () => {
    const lines = toTailLines([text('stdout', 'before', 1), { kind: 'gap', lostBytes: null, reason: 'stream broke', at: 2 }, text('stdout', 'after\n', 3)]);
    expect(show(lines)).toEqual(['stdout:before', '[bytes lost: stream broke]', 'stdout:after']);
  });
});

describe('appendTailEntries (incremental)', () => {
  it('gives the same lines batch by batch as all at once', () => {
    const entries: TailEntry[] = [];
    for (let i = 0; i < 500; i += 1) entries.push(text(i % 3 === 0 ? 'stderr' : 'stdout', `${i}-${'x'.repeat(i % 7)}${i % 4 === 0 ? '\n' : ''}`, i));
    let tail = emptyTailLines();
    for (let i = 0; i < entries.length; i += 13) tail = appendTailEntries(tail, entries.slice(i, i + 13));
    expect(show(tail.lines)).toEqual(show(toTailLines(entries)));
  });

  it('only touches the new batch: earlier line objects are kept as they were', () => {
    let tail = appendTailEntries(emptyTailLines(), [text('stdout', 'one\ntwo\n', 1)]);
    const first = tail.lines[0];
    tail = appendTailEntries(tail, [text('stdout', 'three\n', 2)]);
    expect(tail.lines[0]).toBe(first);
    expect(show(tail.lines)).toEqual(['stdout:one', 'stdout:two', 'stdout:three']);
  });

  it('derives 100,000 lines in 1,000 batches correctly', () => {
    let tail: TailLines = emptyTailLines();
    let seq = 0;
    for (let batch = 0; batch < 1000; batch += 1) {
      const entries: TailEntry[] = [];
      for (let i = 0; i < 100; i += 1) {
        const n = batch * 100 + i;
        // Every line arrives in two chunks; every tenth line goes to stderr.
        const stream = n % 10 === 0 ? 'stderr' : 'stdout';
        entries.push(text(stream, `line ${n} `, (seq += 1)), text(stream, `end\n`, (seq += 1)));
      }
      tail = appendTailEntries(tail, entries);
    }
    expect(tail.lines).toHaveLength(100_000);
    expect(tail.lines[0]).toMatchObject({ kind: 'text', stream: 'stderr', text: 'line 0 end' });
    expect(tail.lines[99_999]).toMatchObject({ kind: 'text', stream: 'stdout', text: 'line 99999 end' });
    expect(tail.lines.filter((l) => l.kind === 'text' && l.stream === 'stderr')).toHaveLength(10_000);
    expect(tail.open).toEqual({ stdout: null, stderr: null });
  });

  it('stays bounded and says how many lines it dropped', () => {
    let tail = emptyTailLines();
    for (let i = 0; i < 30; i += 1) tail = appendTailEntries(tail, [text('stdout', `${i}\n`, i)], { ...defaultTailLimits, maxLines: 10 });
    expect(tail.lines.length).toBeLessThanOrEqual(11);
    expect(tail.lines[0]).toMatchObject({ kind: 'marker', tone: 'gap' });
    const kept = show(tail.lines.slice(1));
    expect(kept[kept.length - 1]).toBe('stdout:29');
    expect(tail.lines[0]?.text).toBe(`[${30 - kept.length} older lines dropped from this view]`);
  });

  it('shows a line that never ends in pieces of the line limit, losing no character', () => {
    const limits = { ...defaultTailLimits, maxLineChars: 8 };
    let tail = emptyTailLines();
    // A progress bar that only ever writes "\r": one unterminated line, chunk after chunk.
    for (let i = 0; i < 10; i += 1) tail = appendTailEntries(tail, [text('stdout', `\r${i}0%`, i)], limits);
    tail = appendTailEntries(tail, [text('stderr', 'x\n', 11), text('stdout', ' ok\n', 12)], limits);
    const stdout = tail.lines.filter((l) => l.kind === 'text' && l.stream === 'stdout').map((l) => l.text);
    expect(stdout.every((t) => t.length <= 8)).toBe(true);
    expect(stdout.join('')).toBe(`${Array.from({ length: 10 }, (_, i) => `\r${i}0%`).join('')} ok`);
    expect(tail.open).toEqual({ stdout: null, stderr: null });
    expect(tail.chars).toBe(tail.lines.reduce((n, l) => n + l.text.length, 0));
  });

  it('stays bounded in characters, dropping the oldest lines with a marker', () => {
    const limits = { ...defaultTailLimits, maxChars: 1000 };
    let tail = emptyTailLines();
    for (let i = 0; i < 100; i += 1) tail = appendTailEntries(tail, [text('stdout', `${String(i).padStart(3, '0')}${'.'.repeat(96)}\n`, i)], limits);
    expect(tail.chars).toBeLessThanOrEqual(1100);
    expect(tail.chars).toBe(tail.lines.reduce((n, l) => n + l.text.length, 0));
    expect(tail.lines[0]).toMatchObject({ kind: 'marker', text: `[${tail.droppedLines} older lines dropped from this view]` });
    expect(show(tail.lines).at(-1)).toBe(`stdout:099${'.'.repeat(96)}`);
    expect(tail.droppedLines + tail.lines.length - 1).toBe(100);
  });

  it('keeps a partial line open across a trim', () => {
    const limits = { ...defaultTailLimits, maxLines: 5 };
    let tail = appendTailEntries(emptyTailLines(), [text('stdout', 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\npartial', 1)], limits);
    tail = appendTailEntries(tail, [text('stdout', ' done\n', 2)], limits);
    expect(show(tail.lines).at(-1)).toBe('stdout:partial done');
  });
});
