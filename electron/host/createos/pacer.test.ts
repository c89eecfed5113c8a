import { describe, expect, it } from 'vitest';
import { PacerRegistry, pacerKey, parseRetryAfter, RequestPacer, type PacerClock } from './pacer';

/** A manual clock: timers fire only when advance() passes their due time. */
class ManualClock implements PacerClock {
  time = 1_000_000;
  private timers: { id: number; at: number; fn: () => void }[] = [];
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ id, at: this.time + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (next === undefined || next.at > until) break;
      this.timers.shift();
      this.time = next.at;
      next.fn();
      await flush();
    }
    this.time = until;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

function track(pacer: RequestPacer, clock: ManualClock, name: string, starts: [string, number][], signal?: AbortSignal): Promise<void> {
  return pacer.acquire(signal).then(() => {
    starts.push([name, clock.now()]);
  });
}

describe('RequestPacer', () => {
  it('starts requests in FIFO order at least 300 ms apart', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer({ clock });
    const starts: [string, number][] = [];
    const t0 = clock.now();
    const all = ['a', 'b', 'c', 'd'].map((name) => track(pacer, clock, name, starts));
    await flush();
    expect(starts).toEqual([['a', t0]]);
    expect(pacer.queued).toBe(3);
    await clock.advance(299);
    expect(starts).toHaveLength(1);
    await clock.advance(1);
    expect(starts).toEqual([['a', t0], ['b', t0 + 300]]);
    await clock.advance(600);
    await Promise.all(all);
    expect(starts).toEqual([['a', t0], ['b', t0 + 300], ['c', t0 + 600], ['d', t0 + 900]]);
    expect(pacer.queued).toBe(0);
  });

  it('a request after a quiet period starts at once', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer({ clock });
    await pacer.acquire();
    await clock.advance(5_000);
    const starts: [string, number][] = [];
    await track(pacer, clock, 'x', starts);
    expect(starts).toEqual([['x', clock.now()]]);
  });

  it('an aborted waiter leaves the queue and does not delay the others', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer({ clock });
    const starts: [string, number][] = [];
    const t0 = clock.now();
    const first = track(pacer, clock, 'first', starts);
    const controller = new AbortController();
    const aborted = track(pacer, clock, 'aborted', starts, controller.signal);
    const third = track(pacer, clock, 'third', starts);
    await flush();
    expect(pacer.queued).toBe(2);
    controller.abort(new Error('gone'));
    await expect(aborted).rejects.toThrow('gone');
    expect(pacer.queued).toBe(1);
    await clock.advance(300);
    await Promise.all([first, third]);
    expect(starts).toEqual([['first', t0], ['third', t0 + 300]]);
  });

  it('aborting the head waiter re-arms for the next one', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer({ clock });
    const starts: [string, number][] = [];
    await pacer.acquire();
    const t0 = clock.now();
    const controller = new AbortController();
    const head = track(pacer, clock, 'head', starts, controller.signal);
    const next = track(pacer, clock, 'next', starts);
    await clock.advance(100);
    controller.abort();
    await expect(head).rejects.toThrow();
    await clock.advance(200);
    await next;
    expect(starts).toEqual([['next', t0 + 300]]);
  });

  it('rejects at once with an already-aborted signal', async () => {
    const pacer = new RequestPacer({ clock: new ManualClock() });
    await expect(pacer.acquire(AbortSignal.abort(new Error('early')))).rejects.toThrow('early');
    expect(pacer.queued).toBe(0);
  });

  it('holdFor (Retry-After) delays every later start', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer({ clock });
    const starts: [string, number][] = [];
    await pacer.acquire();
    const t0 = clock.now();
    const waiting = track(pacer, clock, 'w', starts);
    pacer.holdFor(2_000);
    await clock.advance(1_999);
    expect(starts).toEqual([]);
    await clock.advance(1);
    await waiting;
    expect(starts).toEqual([['w', t0 + 2_000]]);
  });

  it('publishes the queue length to subscribers', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer({ clock });
    const seen: number[] = [];
    const unsubscribe = pacer.subscribe((queued) => seen.push(queued));
    const a = pacer.acquire();
    const b = pacer.acquire();
    await clock.advance(300);
    await Promise.all([a, b]);
    unsubscribe();
    expect(seen).toEqual([1, 0, 1, 0]);
  });

  it('dispose rejects waiters', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer({ clock });
    await pacer.acquire();
    const waiting = pacer.acquire();
    pacer.dispose();
    await expect(waiting).rejects.toThrow('disposed');
  });
});

describe('PacerRegistry', () => {
  it('shares one pacer per origin, keyed by sha256 of the origin', () => {
    const registry = new PacerRegistry({ clock: new ManualClock() });
    const a = registry.forOrigin('https://api.example.com');
    expect(registry.forOrigin('https://api.example.com')).toBe(a);
    expect(registry.forOrigin('https://other.example.com')).not.toBe(a);
    expect(pacerKey('https://api.example.com')).toMatch(/^[0-9a-f]{64}$/);
    registry.dispose();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, caps and falls back', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(['2'], now)).toBe(2_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('9999', now)).toBe(60_000);
    expect(parseRetryAfter(undefined, now)).toBe(1_000);
    expect(parseRetryAfter('soon', now)).toBe(1_000);
  });
});
