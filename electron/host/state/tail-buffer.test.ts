import { describe, expect, it } from 'vitest';
import { TailBuffer } from './tail-buffer';

const text = (seq: number, value: string) => ({ kind: 'text' as const, stream: 'stdout' as const, text: value, seq, at: seq });

describe('TailBuffer', () => {
  it('keeps everything under its bound and replays it', () => {
    const tail = new TailBuffer(1024);
    tail.append(text(1, 'a\n'));
    tail.append(text(2, 'b\n'));
    expect(tail.snapshot()).toEqual([text(1, 'a\n'), text(2, 'b\n')]);
  });

  it('drops the oldest output past its bound and says how much, never silently', () => {
    const tail = new TailBuffer(100);
    for (let seq = 1; seq <= 20; seq += 1) tail.append(text(seq, 'x'.repeat(10)));
    const held = tail.snapshot();
    expect(held[0]).toMatchObject({ kind: 'truncated' });
    const dropped = held[0]?.kind === 'truncated' ? held[0].droppedBytes : 0;
    const keptBytes = held.slice(1).reduce((sum, e) => sum + (e.kind === 'text' ? e.text.length : 0), 0);
    expect(dropped + keptBytes).toBe(200);
    expect(held.at(-1)).toEqual(text(20, 'x'.repeat(10)));
  });

  it('delivers new entries to subscribers in batches, in order', async () => {
    const tail = new TailBuffer(1024, 1);
    const seen: number[] = [];
    const delivered = new Promise<void>((resolve) => {
      tail.subscribe((entries) => {
        for (const e of entries) if (e.kind === 'text') seen.push(e.seq);
        if (seen.length === 3) resolve();
      });
    });
    tail.append(text(1, 'a'));
    tail.append(text(2, 'b'));
    tail.append(text(3, 'c'));
    await delivered;
    expect(seen).toEqual([1, 2, 3]);
    tail.dispose();
  });
});
