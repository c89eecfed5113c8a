import { describe, expect, it } from 'vitest';
import { findSandboxProcesses } from './process-table';
import {
  createSandbox,
  decodeData,
  eachTestWithHarness,
  getProcess,
  procExists,
  readFrames,
  readUntil,
  startHarness,
  startProcess,
  STUBBORN_SCRIPT,
  until,
  type Harness,
  type ProcView,
} from './test-helpers';

let h: Harness;
let sb: string;
eachTestWithHarness((harness, sandboxId) => {
  h = harness;
  sb = sandboxId;
}, { withSandbox: true });

const procPath = (pid: string, rest = '') => `/v1/sandboxes/${sb}/processes/${pid}${rest}`;

describe('managed processes', () => {
  it('reports ManagedProcess fields and one seq counter across stdout and stderr', async () => {
    const p = await startProcess(h, sb, 'for i in 1 2 3; do echo out$i; sleep 0.02; echo err$i >&2; sleep 0.02; done; exit 7');
    expect(p.process_id).toMatch(/^proc_[A-Za-z0-9_-]+$/);
    expect(p).toMatchObject({ kind: 'process', leader_exited: false, tree_exited: false, exit_code: null, finished_at: null });
    expect(['starting', 'running']).toContain(p.state);
    expect(p.pid).toBeGreaterThan(1);
    const { frames } = await readFrames(await h.raw('GET', procPath(p.process_id, '/connect?after=0')));
    const data = frames.filter((f) => f.type === 'data');
    expect(data.map((f) => f.seq)).toEqual(data.map((_, i) => i + 1));
    expect(new Set(data.map((f) => f.stream))).toEqual(new Set(['stdout', 'stderr']));
    expect(decodeData(frames, 'stdout')).toBe('out1\nout2\nout3\n');
    expect(decodeData(frames, 'stderr')).toBe('err1\nerr2\nerr3\n');
    expect(frames.at(-1)).toEqual({ type: 'exit', exit_code: 7, signal: null });
    const done = await getProcess(h, sb, p.process_id);
    expect(done).toMatchObject({ state: 'exited', leader_exited: true, tree_exited: true, exit_code: 7, signal: null });
    expect(done.output.newest_seq).toBe(data.length);
    const list = await h.call<{ data: ProcView[]; pagination: { total: number } }>('GET', `/v1/sandboxes/${sb}/processes`);
    expect(list.body.data.pagination.total).toBe(1);
  });

  it('replays from the middle of a stream, then live output, then exit', async () => {
    const p = await startProcess(h, sb, 'for i in 1 2 3 4; do echo line$i; sleep 0.03; done; read -r x; echo after-$x');
    await until('4 frames', async () => (await getProcess(h, sb, p.process_id)).output.newest_seq >= 4);
    const res = await h.raw('GET', procPath(p.process_id, '/connect?after=2'));
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const reading = readFrames(res);
    await h.call('POST', procPath(p.process_id, '/input'), { data_base64: Buffer.from('go\n').toString('base64') });
    expect((await h.call('POST', procPath(p.process_id, '/stdin/close'))).status).toBe(200);
    expect((await h.call('POST', procPath(p.process_id, '/stdin/close'))).status).toBe(409);
    const { frames } = await reading;
    expect(frames[0]?.seq).toBe(3);
    expect(decodeData(frames)).toBe('line3\nline4\nafter-go\n');
    expect(frames.at(-1)).toEqual({ type: 'exit', exit_code: 0, signal: null });
  });

  it('sends heartbeats while idle', async () => {
    await h.close();
    h = await startHarness({ heartbeatMs: 200 });
    sb = await createSandbox(h);
    const p = await startProcess(h, sb, 'sleep 30');
    const res = await h.raw('GET', procPath(p.process_id, '/connect?after=0'));
    const frames = await readUntil(res, (f) => f.filter((x) => x.type === 'heartbeat').length >= 2);
    expect(frames.map((f) => f.type)).toContain('heartbeat');
  });

  it('wait answers 408 on timeout and the ManagedProcess once done; signal reaches the leader', async () => {
    const p = await startProcess(h, sb, 'sleep 30');
    const timeout = await h.call('GET', procPath(p.process_id, '/wait?scope=leader&timeout_ms=50'));
    expect(timeout.status).toBe(408);
    expect((await h.call('POST', procPath(p.process_id, '/signal'), { signal: 'SIGKILL' })).status).toBe(200);
    const waited = await h.call<ProcView>('GET', procPath(p.process_id, '/wait?scope=tree&timeout_ms=5000'));
    expect(waited.status).toBe(200);
    expect(waited.body.data).toMatchObject({ leader_exited: true, tree_exited: true, exit_code: null, signal: 'SIGKILL' });
    expect((await h.call('POST', procPath(p.process_id, '/signal'), { signal: 'NOPE' })).status).toBe(400);
  });

  it('DELETE with grace kills a TERM-trapping leader and its setsid grandchild', async () => {
    const p = await startProcess(h, sb, STUBBORN_SCRIPT);
    const members = await until('leader and grandchild', async () => {
      const procs = await findSandboxProcesses(sb);
      return procs.filter((x) => x.comm === 'bash').length >= 2 ? procs : undefined;
    });
    const started = Date.now();
    const del = await h.call<ProcView>('DELETE', procPath(p.process_id, '?grace_ms=300'));
    expect(del.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(del.body.data).toMatchObject({ leader_exited: true, tree_exited: true, signal: 'SIGKILL', state: 'exited' });
    expect(await findSandboxProcesses(sb)).toEqual([]);
    for (const m of members) expect(await procExists(m.pid)).toBe(false);
    const { frames } = await readFrames(await h.raw('GET', procPath(p.process_id, '/connect?after=0')));
    expect(decodeData(frames)).toContain('got-term');
    expect(frames.at(-1)).toEqual({ type: 'exit', exit_code: null, signal: 'SIGKILL' });
  });

  it('DELETE of a tree that honours TERM finishes before the grace period', async () => {
    const p = await startProcess(h, sb, 'setsid sleep 300 & sleep 300');
    await until('two sleeps', async () => (await findSandboxProcesses(sb)).filter((x) => x.comm === 'sleep').length === 2);
    const started = Date.now();
    const del = await h.call<ProcView>('DELETE', procPath(p.process_id, '?grace_ms=10000'));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(del.body.data).toMatchObject({ tree_exited: true, leader_exited: true, signal: 'SIGTERM' });
    expect(await findSandboxProcesses(sb)).toEqual([]);
  });

  it('evicts beyond the journal: 410 for an expired offset, replay from what is retained', async () => {
    await h.close();
    h = await startHarness({ journalBytes: 64 * 1024 });
    sb = await createSandbox(h);
    const p = await startProcess(h, sb, 'for i in $(seq 1 40); do head -c 8192 /dev/zero | tr "\\0" x; sleep 0.005; done');
    const done = await h.call<ProcView>('GET', procPath(p.process_id, '/wait?timeout_ms=10000'));
    expect(done.status).toBe(200);
    const view = await getProcess(h, sb, p.process_id);
    expect(view.output.oldest_seq).toBeGreaterThan(1);
    expect(view.output.bytes).toBeLessThanOrEqual(64 * 1024);
    const gone = await h.raw('GET', procPath(p.process_id, '/connect?after=0'));
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ error: 'output_offset_expired', oldest_available_seq: view.output.oldest_seq });
    const { frames } = await readFrames(await h.raw('GET', procPath(p.process_id, `/connect?after=${view.output.oldest_seq - 1}`)));
    expect(frames[0]?.seq).toBe(view.output.oldest_seq);
    expect(frames.at(-1)?.type).toBe('exit');
  });

  it('per-sandbox journal size is honoured', async () => {
    const small = await createSandbox(h, { journal_bytes: 4096 });
    const r = await h.call<ProcView>('POST', `/v1/sandboxes/${small}/processes`, { cmd: 'head', args: ['-c', '100000', '/dev/zero'] });
    await h.call('GET', `/v1/sandboxes/${small}/processes/${r.body.data.process_id}/wait?timeout_ms=5000`);
    const v = (await h.call<ProcView>('GET', `/v1/sandboxes/${small}/processes/${r.body.data.process_id}`)).body.data;
    expect(v.output.bytes).toBeLessThanOrEqual(4096 + 65536);
    expect(v.output.oldest_seq).toBeGreaterThan(1);
  });

  it('a live reader holds the producer back instead of losing output', async () => {
    await h.close();
    h = await startHarness({ journalBytes: 16 * 1024 });
    sb = await createSandbox(h);
    const p = await startProcess(h, sb, 'read -r x; head -c 3000000 /dev/urandom | base64 -w 0');
    const res = await h.raw('GET', procPath(p.process_id, '/connect?after=0'));
    await h.call('POST', procPath(p.process_id, '/stdin/close'));
    const { frames } = await readFrames(res);
    expect(frames.at(-1)).toEqual({ type: 'exit', exit_code: 0, signal: null });
    expect(decodeData(frames, 'stdout').length).toBe(4_000_000);
  });
});
