// Tree membership against real processes: processes that drop their environment (the marker) and
// DELETE racing a fresh exec must neither escape nor be reported gone while they run.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IsolationKind } from './isolation';
import { detectMembership, type MembershipKind } from './membership';
import {
  createSandbox,
  getProcess,
  hostPidsByArgv,
  procExists,
  startHarness,
  startProcess,
  uniqueSleep,
  until,
  type Harness,
  type ProcView,
} from './test-helpers';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  vi.unstubAllEnvs();
});

const cgroups = detectMembership().kind === 'cgroup';
const isolations: IsolationKind[] = ['bwrap', 'pid-namespace', 'process-group'];

async function harness(membership: MembershipKind, isolation?: IsolationKind): Promise<Harness> {
  vi.stubEnv('CREATEOS_LOCAL_MEMBERSHIP', membership);
  h = await startHarness(isolation === undefined ? {} : { isolation });
  return h;
}

async function call<T>(method: string, p: string): Promise<{ status: number; data: T }> {
  if (h === null) throw new Error('no harness');
  const r = await h.call<T>(method, p);
  return { status: r.status, data: r.body.data };
}

describe.skipIf(!cgroups).each(isolations)('cgroup membership under %s', (isolation) => {
  it('a setsid grandchild with an emptied environment keeps the tree alive until DELETE kills it', async () => {
    const hh = await harness('cgroup', isolation);
    const sb = await createSandbox(hh);
    const dur = uniqueSleep();
    const p = await startProcess(hh, sb, `setsid env -i sleep ${dur} & echo started`);
    const [escapee] = await until('the sleep', async () => {
      const pids = await hostPidsByArgv(['sleep', dur]);
      return pids.length === 1 ? pids : undefined;
    });
    await until('leader exited', async () => (await getProcess(hh, sb, p.process_id)).leader_exited);
    expect(await getProcess(hh, sb, p.process_id)).toMatchObject({ leader_exited: true, tree_exited: false });
    expect((await call('GET', `/v1/sandboxes/${sb}/processes/${p.process_id}/wait?scope=tree&timeout_ms=100`)).status).toBe(408);
    const del = await call<ProcView>('DELETE', `/v1/sandboxes/${sb}/processes/${p.process_id}?grace_ms=2000`);
    expect(del.data).toMatchObject({ leader_exited: true, tree_exited: true });
    expect(await procExists(escapee ?? -1)).toBe(false);
    expect((await getProcess(hh, sb, p.process_id)).tree_exited).toBe(true);
  });

  it('sandbox destroy kills a process that dropped its environment', async () => {
    const hh = await harness('cgroup', isolation);
    const sb = await createSandbox(hh);
    const dur = uniqueSleep();
    await startProcess(hh, sb, `setsid env -i sleep ${dur} & exec sleep ${uniqueSleep()}`);
    const [escapee] = await until('the sleep', async () => {
      const pids = await hostPidsByArgv(['sleep', dur]);
      return pids.length === 1 ? pids : undefined;
    });
    expect((await call('DELETE', `/v1/sandboxes/${sb}`)).status).toBe(200);
    expect(await procExists(escapee ?? -1)).toBe(false);
  });
});

describe.each<MembershipKind>(cgroups ? ['cgroup', 'marker'] : ['marker'])('%s membership', (membership) => {
  it('a leader that dropped its environment is still signalled by DELETE', async () => {
    const hh = await harness(membership);
    const sb = await createSandbox(hh);
    const dur = uniqueSleep();
    const p = await startProcess(hh, sb, `exec env -i sleep ${dur}`);
    await until('the leader runs sleep without an environment', async () => {
      const cmdline = await readFile(`/proc/${p.pid}/cmdline`, 'utf8').catch(() => '');
      return cmdline === `sleep\0${dur}\0`;
    });
    const del = await call<ProcView>('DELETE', `/v1/sandboxes/${sb}/processes/${p.process_id}?grace_ms=2000`);
    expect(del.data).toMatchObject({ leader_exited: true, tree_exited: true, signal: 'SIGTERM', state: 'exited' });
    expect(await procExists(p.pid)).toBe(false);
  });

  it('DELETE straight after create kills the leader, every time', async () => {
    const hh = await harness(membership);
    const sb = await createSandbox(hh);
    for (let i = 0; i < 15; i++) {
      const p = await startProcess(hh, sb, `exec sleep ${uniqueSleep()}`);
      const del = await call<ProcView>('DELETE', `/v1/sandboxes/${sb}/processes/${p.process_id}?grace_ms=2000`);
      expect(del.data).toMatchObject({ leader_exited: true, tree_exited: true, state: 'exited' });
      expect(await procExists(p.pid)).toBe(false);
    }
  });
});
