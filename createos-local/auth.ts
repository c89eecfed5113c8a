// X-Api-Key check (constant time) and the per-address sliding-window rate limit.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function makeAuth(apiKey: string): (req: IncomingMessage) => void {
  const expected = digest(apiKey);
  return (req) => {
    const got = req.headers['x-api-key'];
    if (typeof got !== 'string' || got.length === 0) throw new HttpError(401, 'unauthorized', 'missing X-Api-Key header');
    if (!timingSafeEqual(digest(got), expected)) throw new HttpError(401, 'unauthorized', 'invalid API key');
  };
}

const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = -Infinity;

  /** Addresses currently tracked (those with a request in the last window, plus at most one window of stale ones). */
  get trackedAddresses(): number {
    return this.hits.size;
  }

  /** Forgets addresses whose newest request left the window; runs at most once per window (amortised O(1)). */
  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = now;
    for (const [address, list] of this.hits) {
      const newest = list.at(-1);
      if (newest === undefined || newest <= now - WINDOW_MS) this.hits.delete(address);
    }
  }

  /** Counts one request from `address`; throws 429 with Retry-After when over `perMinute`. */
  check(address: string, perMinute: number, now = Date.now()): void {
    this.sweep(now);
    let list = this.hits.get(address);
    if (list === undefined) {
      list = [];
      this.hits.set(address, list);
    }
    let drop = 0;
    while (drop < list.length && (list[drop] ?? 0) <= now - WINDOW_MS) drop += 1;
    if (drop > 0) list.splice(0, drop);
    if (list.length >= perMinute) {
      const oldest = list[list.length - perMinute] ?? now;
      const retryAfter = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
      throw new HttpError(429, 'rate_limited', `rate limit of ${perMinute} requests per minute exceeded`, { retry_after_seconds: retryAfter }, { 'retry-after': String(retryAfter) });
    }
    list.push(now);
  }
}
