import { describe, expect, it } from 'vitest';
import { createPushQueue } from './push-queue';

describe('createPushQueue', () => {
  it('delivers pushed values in order, including those pushed before iteration', async () => {
    const queue = createPushQueue<number>();
    queue.push(1);
    queue.push(2);
    const seen: number[] = [];
    const done = (async () => { for await (const v of queue) seen.push(v); })();
    queue.push(3);
    queue.end();
    await done;
    expect(seen).toEqual([1, 2, 3]);
  });

  it('closes and calls onClose when the signal aborts or the consumer returns', async () => {
    const controller = new AbortController();
    let closes = 0;
    const queue = createPushQueue<number>(controller.signal, () => { closes += 1; });
    const iterator = queue[Symbol.asyncIterator]();
    queue.push(7);
    expect(await iterator.next()).toEqual({ value: 7, done: false });
    const pending = iterator.next();
    controller.abort();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(closes).toBe(1);
    queue.push(8);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });
});
