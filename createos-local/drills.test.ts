import { get, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from './auth';
import { parseFaultFlag } from './faults';
import type { HttpError } from './http';
import { findSandboxProcesses } from './process-table';
import {
  armFault,
  createSandbox,
  decodeData,
  eachTestWithHarness,
  getProcess,
  KEY,
  procExists,
  readFrames,
  sessionLeaderShells,
  startHarness,
  startProcess,
  STUBBORN_SCRIPT,
  until,
  type Frame,
  type Harness,
  type ProcView,
} from './test-helpers';

let h: Harness;
eachTestWithHarness((harness) => {
  h = harness;
});

const arm = (spec: Record<string, unknown>) => armFault(h, spec);

describe('rate limiter', () => {
  it('allows per-minute requests in a sliding window and says when to retry', () => {
    const rl = new RateLimiter();
    const t = 1_000_000;
    for (let i = 0; i < 300; i++) rl.check('a', 300, t + i);
    expect(() => rl.check('a', 300, t + 300)).toThrow(/rate limit/);
    rl.check('b', 300, t + 300);
    try {
      rl.check('a', 300, t + 1000);
    } catch (err) {
      expect((err as HttpError).status).toBe(429);
      expect((err as HttpError).headers['retry-after']).toBe('59');
    }
    rl.check('a', 300, t + 60_001);
  });
});

describe('admin API', () => {
  it('arms, lists, disarms one and clears all; validates specs', async () => {
    const a = await arm({ kind: 'slow', path_prefix: '/v1/whoami', delay_ms: 1, times: 5 });
    const b = await arm({ kind: 'rate-limit', per_minute: 1000 });
    const list = await h.call<{ faults: Array<{ id: string; kind: string }> }>('GET', '/admin/faults');
    expect(list.body.data.faults.map((f) => f.id).sort()).toEqual([a, b].sort());
    expect((await h.call('DELETE', `/admin/faults/${a}`)).status).toBe(200);
    expect((await h.call('DELETE', `/admin/faults/${a}`)).status).toBe(404);
    expect((await h.call<{ cleared: number }>('DELETE', '/admin/faults')).body.data.cleared).toBe(1);
    expect((await h.call<{ faults: unknown[] }>('GET', '/admin/faults')).body.data.faults).toEqual([]);
    const unknownKind = await h.call('POST', '/admin/faults', { kind: 'meteor' });
    expect(unknownKind.status).toBe(400);
    const extra = await h.call('POST', '/admin/faults', { kind: 'stubborn-tree', sandbox_id: 'sb_x', oops: true });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/oops/);
    expect((await h.call('POST', '/admin/faults', '{nope')).status).toBe(400);
  });

  it('parses --fault flags and arms them at start', async () => {
    expect(parseFaultFlag('drop-stream:sandbox_id=sb_a,after_frames=3,times=2')).toEqual({ kind: 'drop-stream', sandbox_id: 'sb_a', after_frames: 3, times: 2 });
    expect(() => parseFaultFlag('slow:path_prefix=/v1,delay_ms=abc')).toThrow(/delay_ms/);
    expect(() => parseFaultFlag('nonsense:x=1')).toThrow();
    await h.close();
    h = await startHarness({ faults: [parseFaultFlag('http-error:path_prefix=/v1/shapes,status=502,times=1')] });
    expect((await h.call('GET', '/v1/shapes')).status).toBe(502);
    expect((await h.call('GET', '/v1/shapes')).status).toBe(200);
  });
});

describe('drills', { timeout: 60_000 }, () => {
  it('http-error answers the status with a fake secret, counts down, and only for its prefix', async () => {
    await arm({ kind: 'http-error', path_prefix: '/v1/whoami', status: 503, times: 2 });
    const first = await h.call('GET', '/v1/whoami');
    expect(first.status).toBe(503);
    expect(first.text).toMatch(/sk-leak-[0-9a-f]+/);
    expect((await h.call('GET', '/v1/shapes')).status).toBe(200);
    expect((await h.call('GET', '/v1/whoami')).status).toBe(503);
    expect((await h.call('GET', '/v1/whoami')).status).toBe(200);
    await arm({ kind: 'http-error', path_prefix: '/sandboxes', status: 302, times: 1 });
    const redirect = await fetch(`${h.server.url}/v1/sandboxes`, { headers: { 'x-api-key': KEY }, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBeTruthy();
    expect((await h.call('GET', '/v1/sandboxes')).status).toBe(200);
  });

  it('slow delays matching requests once', async () => {
    await arm({ kind: 'slow', path_prefix: '/v1/whoami', delay_ms: 300, times: 1 });
    let t = Date.now();
    expect((await h.call('GET', '/v1/whoami')).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(290);
    t = Date.now();
    await h.call('GET', '/v1/whoami');
    expect(Date.now() - t).toBeLessThan(290);
  });

  it('rate limit: 300/min per address by default, rate-limit drill lowers it, admin is exempt', async () => {
    const results = [];
    for (let batch = 0; batch < 3; batch++) {
      results.push(...(await Promise.all(Array.from({ length: 105 }, () => h.call('GET', '/v1/whoami')))));
    }
    const limited = results.filter((r) => r.status === 429);
    expect(results.length - limited.length).toBe(300);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0]?.body.message).toMatch(/rate limit/);
    expect((await h.call('GET', '/admin/faults')).status).toBe(200);
    expect((await fetch(`${h.server.url}/healthz`)).status).toBe(200);
    await h.close();
    h = await startHarness();
    await arm({ kind: 'rate-limit', per_minute: 5 });
    const codes = [];
    for (let i = 0; i < 7; i++) codes.push((await h.call('GET', '/v1/whoami')).status);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    for (let i = 0; i < 10; i++) expect((await h.call('GET', '/admin/faults')).status).toBe(200);
  });

  it('drop-stream cuts the next connect after N frames; the one after is whole', async () => {
    const sb = await createSandbox(h);
    const other = await createSandbox(h);
    const p = await startProcess(h, sb, 'for i in 1 2 3 4 5; do echo $i; sleep 0.03; done');
    await h.call('GET', `/v1/sandboxes/${sb}/processes/${p.process_id}/wait?timeout_ms=5000`);
    await arm({ kind: 'drop-stream', sandbox_id: sb, after_frames: 2, times: 1 });
    const q = await startProcess(h, other, 'echo other');
    await h.call('GET', `/v1/sandboxes/${other}/processes/${q.process_id}/wait?timeout_ms=5000`);
    const unaffected = await readFrames(await h.raw('GET', `/v1/sandboxes/${other}/processes/${q.process_id}/connect?after=0`));
    expect(unaffected.frames.at(-1)?.type).toBe('exit');
    const cut = await readFrames(await h.raw('GET', `/v1/sandboxes/${sb}/processes/${p.process_id}/connect?after=0`));
    expect(cut.frames.map((f) => f.seq)).toEqual([1, 2]);
    expect(cut.frames.some((f) => f.type === 'exit')).toBe(false);
    expect(cut.error).not.toBeNull();
    const whole = await readFrames(await h.raw('GET', `/v1/sandboxes/${sb}/processes/${p.process_id}/connect?after=2`));
    expect(decodeData(whole.frames)).toBe('3\n4\n5\n');
    expect(whole.frames.at(-1)).toEqual({ type: 'exit', exit_code: 0, signal: null });
  });

  it('lose-create-reply really starts the process and resets the connection', async () => {
    const sb = await createSandbox(h);
    await arm({ kind: 'lose-create-reply', sandbox_id: sb, times: 1 });
    await expect(h.call('POST', `/v1/sandboxes/${sb}/processes`, { cmd: 'sleep', args: ['300'] })).rejects.toThrow();
    const list = await h.call<{ data: ProcView[] }>('GET', `/v1/sandboxes/${sb}/processes`);
    expect(list.body.data.data).toHaveLength(1);
    expect(list.body.data.data[0]?.state).toBe('running');
    await until('the sleep runs in the sandbox', async () => (await findSandboxProcesses(sb)).map((p) => p.comm).join() === 'sleep');
    const again = await h.call<ProcView>('POST', `/v1/sandboxes/${sb}/processes`, { cmd: 'true' });
    expect(again.status).toBe(200);
  });

  it('stubborn-tree: TERM only, the tree really survives until the sandbox is destroyed', async () => {
    const sb = await createSandbox(h);
    await arm({ kind: 'stubborn-tree', sandbox_id: sb });
    const p = await startProcess(h, sb, STUBBORN_SCRIPT);
    const members = await until('leader and grandchild', async () => {
      const procs = await findSandboxProcesses(sb);
      const shells = sessionLeaderShells(procs);
      return shells.length >= 2 ? shells : undefined;
    });
    const del = await h.call<ProcView>('DELETE', `/v1/sandboxes/${sb}/processes/${p.process_id}?grace_ms=200`);
    expect(del.status).toBe(200);
    expect(del.body.data).toMatchObject({ tree_exited: false, leader_exited: false, state: 'terminating' });
    const after = await findSandboxProcesses(sb);
    for (const m of members) {
      expect(after.map((x) => x.pid)).toContain(m.pid);
      expect(await procExists(m.pid)).toBe(true);
    }
    expect((await getProcess(h, sb, p.process_id)).tree_exited).toBe(false);
    expect((await h.call('DELETE', `/v1/sandboxes/${sb}`)).status).toBe(200);
    expect(await findSandboxProcesses(sb)).toEqual([]);
    for (const m of members) expect(await procExists(m.pid)).toBe(false);
  });

  it('evict shrinks journals: unread output of a finished process is gone (410)', async () => {
    const sb = await createSandbox(h);
    const p = await startProcess(h, sb, 'for i in $(seq 1 20); do echo line-$i; sleep 0.01; done');
    await h.call('GET', `/v1/sandboxes/${sb}/processes/${p.process_id}/wait?timeout_ms=5000`);
    await arm({ kind: 'evict', sandbox_id: sb, journal_bytes: 16 });
    const view = await getProcess(h, sb, p.process_id);
    expect(view.output.oldest_seq).toBeGreaterThan(1);
    const res = await h.raw('GET', `/v1/sandboxes/${sb}/processes/${p.process_id}/connect?after=0`);
    expect(res.status).toBe(410);
    // Processes started later in that sandbox get the small journal too.
    const q = await startProcess(h, sb, 'for i in $(seq 1 20); do echo again-$i; sleep 0.01; done');
    await h.call('GET', `/v1/sandboxes/${sb}/processes/${q.process_id}/wait?timeout_ms=5000`);
    expect((await h.raw('GET', `/v1/sandboxes/${sb}/processes/${q.process_id}/connect?after=0`)).status).toBe(410);
  });

  it('evict under an open, lagging stream ends it with an output_offset_expired frame', async () => {
    const sb = await createSandbox(h);
    const p = await startProcess(h, sb, 'read -r x; head -c 300000000 /dev/zero');
    // A client that stops reading: the socket fills, the server-side reader lags behind the journal.
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`${h.server.url}/v1/sandboxes/${sb}/processes/${p.process_id}/connect?after=0`, { headers: { 'x-api-key': KEY } }, (r) => {
        r.pause();
        resolve(r);
      }).on('error', reject);
    });
    await h.call('POST', `/v1/sandboxes/${sb}/processes/${p.process_id}/stdin/close`);
    let last = -1;
    await until('producer held back by the lagging reader', async () => {
      const v = await getProcess(h, sb, p.process_id);
      const stalled = v.output.newest_seq === last && v.output.bytes >= 1024 * 1024 && !v.leader_exited;
      last = v.output.newest_seq;
      await new Promise((r) => setTimeout(r, 100));
      return stalled;
    });
    await arm({ kind: 'evict', sandbox_id: sb, journal_bytes: 1024 });
    let tail = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (tail = (tail + chunk).slice(-4096)));
    res.resume();
    await new Promise((resolve) => res.once('end', resolve));
    const lines = tail.split('\n').filter((l) => l.length > 0);
    const frame = JSON.parse(lines.at(-1) ?? '{}') as Frame;
    expect(frame).toMatchObject({ type: 'error', error: 'output_offset_expired' });
    expect(frame.oldest_available_seq).toBeGreaterThan(1);
  });

  it('faults need the API key', async () => {
    const r = await fetch(`${h.server.url}/admin/faults`, { method: 'POST', body: '{}', headers: { 'x-api-key': `${KEY}x` } });
    expect(r.status).toBe(401);
  });
});
