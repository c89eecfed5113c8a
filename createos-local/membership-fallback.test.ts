// The marker fallback's safeguards (a second scan before "empty", the known leader, no sticky
// "tree gone") and the cgroup mount parsing, without a server.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mountedHierarchies } from './cgroups';
import { detectIsolation } from './isolation';
import type { SandboxHandle } from './launch';
import { ManagedProcess } from './managed-process';
import { markerMembership, type Membership, type TreeRef } from './membership';
import { identityOf, readStat, type MarkedProc, type ProcStat } from './process-table';
import { procExists, until } from './test-helpers';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const fake = (pid: number, processId = 'proc_a'): MarkedProc => ({ pid, ppid: 1, pgid: pid, sid: pid, state: 'S', comm: 'x', startTime: '1', sandboxId: 'sb_a', processId });
const ref = (leader: TreeRef['leader'] = null): TreeRef => ({ sandboxId: 'sb_a', processId: 'proc_a', leader, launcherPid: null });

describe('marker membership', () => {
  it('believes an empty scan only when the next scan agrees', async () => {
    const scans = [[], [fake(4242)], [], []];
    const m = markerMembership('test', () => Promise.resolve(scans.shift() ?? []));
    expect((await m.tree(ref())).map((p) => p.pid)).toEqual([4242]);
    expect(await m.tree(ref())).toEqual([]);
    expect(scans).toEqual([]);
  });

  it('counts the known leader while it lives, by PID and start time, marker or not', async () => {
    const child = spawn('/usr/bin/env', ['-i', '/usr/bin/sleep', '300'], { stdio: 'ignore' });
    cleanup.push(() => void child.kill('SIGKILL'));
    await new Promise((resolve) => child.once('spawn', resolve));
    const pid = child.pid ?? -1;
    const stat = await until('the sleep', async () => {
      const s = await readStat(pid);
      return s?.comm === 'sleep' ? s : undefined;
    });
    const m = markerMembership('test', () => Promise.resolve([]));
    expect((await m.tree(ref(identityOf(stat)))).map((p) => p.pid)).toEqual([pid]);
    expect(await m.tree(ref({ pid, startTime: `${stat.startTime}1` }))).toEqual([]);
    expect(await m.tree({ ...ref(identityOf(stat)), launcherPid: pid })).toEqual([]);
    child.kill('SIGKILL');
    await until('the sleep is gone', async () => !(await procExists(pid)));
    expect(await m.tree(ref(identityOf(stat)))).toEqual([]);
  });
});

describe('tree_exited is asked afresh', () => {
  it('a tree seen empty and then with a member again is reported not exited', async () => {
    let members: ProcStat[] = [];
    const real = markerMembership('test', () => Promise.resolve([]));
    const membership: Membership = { ...real, tree: () => Promise.resolve(members) };
    const isolation = detectIsolation('process-group');
    const root = await mkdtemp(path.join(tmpdir(), 'createos-local-mp-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    await isolation.prepareRoot(root);
    const init = await isolation.startInit(root);
    const sb: SandboxHandle = { id: 'sb_a', root, isolation, init, envs: {}, membership, launchers: new Set() };
    const proc = new ManagedProcess(sb, 65536, false);
    await proc.start({ cmd: '/usr/bin/true', args: [], cwd: '/', env: {} });
    expect(await proc.waitLeader(10_000)).toBe(true);
    expect((await proc.view()).tree_exited).toBe(true);
    members = [fake(4242)];
    expect((await proc.view()).tree_exited).toBe(false);
  });
});

describe('cgroup hierarchies', () => {
  it('prefers cgroup2, then v1 pids or freezer, and decodes escaped mount points', () => {
    const mounts = [
      'cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0',
      'cgroup /sys/fs/cgroup/freezer cgroup rw,relatime,freezer 0 0',
      'cgroup /sys/fs/cgroup/pids cgroup rw,relatime,pids 0 0',
      'cgroup2 /sys/fs/cgroup/my\\040unified cgroup2 rw,relatime 0 0',
      'proc /proc proc rw 0 0',
    ].join('\n');
    expect(mountedHierarchies(mounts)).toEqual([
      { mount: '/sys/fs/cgroup/my unified', version: 2 },
      { mount: '/sys/fs/cgroup/freezer', version: 1 },
      { mount: '/sys/fs/cgroup/pids', version: 1 },
    ]);
  });
});
