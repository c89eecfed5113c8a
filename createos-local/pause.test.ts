import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findSandboxProcesses } from './process-table';
import { Sandbox } from './sandbox';
import { createSandbox, startHarness, startProcess, until, type Harness, type ProcView } from './test-helpers';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

const status = async (sb: string) => (await h.call<{ status: string }>('GET', `/v1/sandboxes/${sb}`)).body.data.status;

describe('pause and resume', () => {
  it('pause really stops every process (SIGSTOP); resume continues them (SIGCONT)', async () => {
    const sb = await createSandbox(h);
    await startProcess(h, sb, 'i=0; while true; do i=$((i+1)); echo $i > /tmp/counter; sleep 0.02; done');
    const counter = async () => Number(await (await h.raw('GET', `/v1/sandboxes/${sb}/files?path=/tmp/counter`)).text());
    await until('counter running', async () => (await counter()) > 3);

    const pause = await h.call<{ status: string }>('POST', `/v1/sandboxes/${sb}/pause`);
    expect(pause.status).toBe(202);
    expect(pause.body.data.status).toBe('pausing');
    await until('paused', async () => (await status(sb)) === 'paused');
    const stopped = await findSandboxProcesses(sb);
    expect(stopped.length).toBeGreaterThan(0);
    for (const p of stopped) expect(p.state).toBe('T');
    const c1 = await counter();
    // Measurement window, not synchronisation: a running loop would advance ~15 times in it.
    await new Promise((r) => setTimeout(r, 300));
    expect(await counter()).toBe(c1);

    const again = await h.call<{ status: string }>('POST', `/v1/sandboxes/${sb}/pause`);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('paused');
    expect((await h.call('POST', `/v1/sandboxes/${sb}/processes`, { cmd: 'true' })).status).toBe(409);
    expect((await h.call('POST', `/v1/sandboxes/${sb}/exec`, { cmd: 'true' })).status).toBe(409);

    const resume = await h.call<{ status: string }>('POST', `/v1/sandboxes/${sb}/resume`);
    expect(resume.status).toBe(202);
    expect(resume.body.data.status).toBe('resuming');
    await until('running', async () => (await status(sb)) === 'running');
    for (const p of await findSandboxProcesses(sb)) expect(p.state).not.toBe('T');
    await until('counter moves again', async () => (await counter()) > c1 + 3);
    const view = (await h.call<Record<string, unknown>>('GET', `/v1/sandboxes/${sb}`)).body.data;
    expect(view['paused_at']).toEqual(expect.any(String));
    expect(view['last_resumed_at']).toEqual(expect.any(String));

    const runningAlready = await h.call<{ status: string }>('POST', `/v1/sandboxes/${sb}/resume`);
    expect(runningAlready.status).toBe(200);
    expect(runningAlready.body.data.status).toBe('running');
  });

  it('conflicting transitions answer 409; a paused sandbox can still be destroyed', async () => {
    const created = await h.call<{ id: string }>('POST', '/v1/sandboxes', { shape: 's-1vcpu-1gb' });
    const early = await h.call<{ status: string }>('POST', `/v1/sandboxes/${created.body.data.id}/pause`);
    // Boot takes tens of milliseconds; the pause above normally lands while it is `creating`.
    if (early.status === 409) expect(early.body['sandbox_status']).toBe('creating');
    else expect(early.status).toBe(202);
    const sb = await createSandbox(h);
    const victim = await startProcess(h, sb, 'sleep 300');
    await startProcess(h, sb, 'sleep 300');
    await until('sleeps visible', async () => (await findSandboxProcesses(sb)).filter((p) => p.comm === 'sleep').length === 2);
    expect((await h.call('POST', `/v1/sandboxes/${sb}/pause`)).status).toBe(202);
    await until('paused', async () => (await status(sb)) === 'paused');
    // A process of a paused sandbox can still be terminated, and its exit is observed.
    const del = await h.call<ProcView>('DELETE', `/v1/sandboxes/${sb}/processes/${victim.process_id}?grace_ms=200`);
    expect(del.body.data).toMatchObject({ leader_exited: true, tree_exited: true, signal: 'SIGTERM' });
    expect((await h.call('DELETE', `/v1/sandboxes/${sb}`)).status).toBe(200);
    expect(await findSandboxProcesses(sb)).toEqual([]);
    expect((await h.call('POST', `/v1/sandboxes/${sb}/resume`)).status).toBe(404);
  });

  it('a member that never stops: the sandbox is not reported paused, and resume recovers it', async () => {
    const sb = await createSandbox(h);
    await startProcess(h, sb, 'exec sleep 300');
    await until('the sleep runs', async () => (await findSandboxProcesses(sb)).some((p) => p.comm === 'sleep'));
    // The sleep really gets SIGSTOP, but the process table keeps reporting it running.
    const original = Object.getOwnPropertyDescriptor(Sandbox.prototype, 'liveMembers')?.value as (this: Sandbox) => Promise<Array<{ comm: string; state: string }>>;
    vi.spyOn(Sandbox.prototype, 'liveMembers').mockImplementation(async function members(this: Sandbox) {
      return (await original.call(this)).map((p) => (p.comm === 'sleep' ? { ...p, state: 'R' } : p)) as never;
    });
    expect((await h.call('POST', `/v1/sandboxes/${sb}/pause`)).status).toBe(202);
    const settled = await until('pause settled', async () => {
      const s = await status(sb);
      return s === 'pausing' ? undefined : s;
    });
    expect(settled).toBe('error');
    vi.restoreAllMocks();
    expect((await h.call('POST', `/v1/sandboxes/${sb}/resume`)).status).toBe(202);
    await until('running', async () => (await status(sb)) === 'running');
    for (const p of await findSandboxProcesses(sb)) expect(p.state).not.toBe('T');
  });
});
