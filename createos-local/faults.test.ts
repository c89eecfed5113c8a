import { describe, expect, it } from 'vitest';
import { matchesPath } from './faults';
import { armFault, eachTestWithHarness, KEY, type Harness } from './test-helpers';

const segs = (p: string) => p.split('/').filter((s) => s.length > 0).map(decodeURIComponent);

describe('fault path matching', () => {
  it('matches decoded, normalised paths by whole segments', () => {
    expect(matchesPath('/v1/sandboxes/sb_x', segs('/v1/sandboxes/sb_x'))).toBe(true);
    expect(matchesPath('/v1/sandboxes/sb_x', segs('/v1/sandboxes/sb_x/processes'))).toBe(true);
    expect(matchesPath('/v1/sandboxes/sb_x', segs('/v1/sandboxes/%73b_x'))).toBe(true);
    expect(matchesPath('/v1/sandboxes/sb_x', segs('//v1//sandboxes/sb_x/'))).toBe(true);
    expect(matchesPath('/v1/sandboxes/sb_x/', segs('/v1/sandboxes/sb_x'))).toBe(true);
    expect(matchesPath('/sandboxes/sb_x', segs('/v1/sandboxes/sb_x'))).toBe(true);
    expect(matchesPath('/v1/sandboxes/sb_x', segs('/v1/sandboxes/sb_xy'))).toBe(false);
    expect(matchesPath('/v1/sandboxes/sb_x', segs('/v1/sandboxes'))).toBe(false);
    expect(matchesPath('/v1/whoami', segs('/v1/shapes'))).toBe(false);
    expect(matchesPath('/', segs('/v1/shapes'))).toBe(true);
  });
});

let h: Harness;
eachTestWithHarness((harness) => {
  h = harness;
});

const arm = (spec: Record<string, unknown>) => armFault(h, spec);
const armed = async () => (await h.call<{ faults: Array<{ id: string; times?: number }> }>('GET', '/admin/faults')).body.data.faults;
const fetchAs = (p: string, key: string | null) => fetch(`${h.server.url}${p}`, { headers: key === null ? {} : { 'x-api-key': key }, redirect: 'manual' });

describe('http-error and slow faults', () => {
  it('leave unauthenticated requests alone: they get 401 and use up nothing', async () => {
    await arm({ kind: 'http-error', path_prefix: '/v1/sandboxes/sb_x', status: 503, times: 1 });
    await arm({ kind: 'slow', path_prefix: '/v1/whoami', delay_ms: 1, times: 1 });
    await arm({ kind: 'http-error', path_prefix: '/healthz', status: 502, times: 1 });
    for (let i = 0; i < 3; i++) {
      expect((await fetchAs('/v1/sandboxes/sb_x', null)).status).toBe(401);
      expect((await fetchAs('/v1/sandboxes/sb_x', 'wrong-key')).status).toBe(401);
      expect((await fetchAs('/v1/whoami', null)).status).toBe(401);
      expect((await fetchAs('/healthz', null)).status).toBe(200);
    }
    expect((await armed()).map((f) => f.times)).toEqual([1, 1, 1]);
    expect((await fetchAs('/healthz', KEY)).status).toBe(502);
    expect((await fetchAs('/v1/whoami', KEY)).status).toBe(200);
    const injected = await fetchAs('/v1/sandboxes/sb_x', KEY);
    expect(injected.status).toBe(503);
    expect(await injected.text()).toMatch(/sk-leak-/);
    expect(await armed()).toEqual([]);
  });

  it('cannot be dodged by percent-encoding or doubled slashes', async () => {
    for (const variant of ['/v1/sandboxes/%73b_x', '//v1/sandboxes/sb_x', '/v1//sandboxes/sb_x/', '/v1/sandboxes/sb_x/processes']) {
      await arm({ kind: 'http-error', path_prefix: '/v1/sandboxes/sb_x', status: 503, times: 1 });
      const r = await fetchAs(variant, KEY);
      expect(r.status, variant).toBe(503);
      await r.text();
    }
    await arm({ kind: 'http-error', path_prefix: '/v1/sandboxes/sb_x', status: 503, times: 1 });
    // Whole segments: another sandbox whose id merely starts the same is not affected.
    expect((await fetchAs('/v1/sandboxes/sb_xy', KEY)).status).toBe(404);
    expect(await armed()).toHaveLength(1);
    // The doubled-slash form really reaches the router's /v1 (no longer parsed as a host name).
    expect((await fetchAs('//v1/whoami', KEY)).status).toBe(200);
  });
});
