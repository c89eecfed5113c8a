import { describe, expect, it } from 'vitest';
import { RateLimiter } from './auth';

describe('rate limiter memory', () => {
  it('forgets addresses whose requests have all left the window, and keeps limiting live ones', () => {
    const rl = new RateLimiter();
    const t = 5_000_000;
    for (let i = 0; i < 1000; i++) rl.check(`10.0.${i >> 8}.${i & 255}`, 300, t + i);
    for (let i = 0; i < 300; i++) rl.check('busy', 300, t + 30_000);
    rl.check('recent', 300, t + 50_000);
    expect(rl.trackedAddresses).toBe(1002);
    // A minute after the 1000 one-off addresses, they are gone; the live ones are still counted.
    rl.check('late', 300, t + 61_000);
    expect(rl.trackedAddresses).toBe(3);
    expect(() => rl.check('busy', 300, t + 61_000)).toThrow(/rate limit/);
    rl.check('recent', 300, t + 61_000);
    expect(rl.trackedAddresses).toBe(3);
    rl.check('busy', 300, t + 90_001);
    // Everything but the latest requests eventually drops out too.
    rl.check('other', 300, t + 200_000);
    expect(rl.trackedAddresses).toBe(1);
  });
});
