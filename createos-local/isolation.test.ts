// Sandbox init teardown must never signal a process that merely reuses the init's PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectIsolation } from './isolation';
import { procExists, until } from './test-helpers';

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';
const canSteerPids = (() => {
  try {
    accessSync(NS_LAST_PID, constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Spawns `sleep` until it gets exactly `pid` (steering the kernel's next PID), or gives up. */
async function spawnWithPid(pid: number): Promise<ChildProcess | null> {
  for (let i = 0; i < 200; i++) {
    writeFileSync(NS_LAST_PID, String(pid - 1));
    const child = spawn('/usr/bin/sleep', ['300'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    if (child.pid === pid) return child;
    child.kill('SIGKILL');
  }
  return null;
}

const iso = detectIsolation();

describe.skipIf(iso.kind === 'process-group' || !canSteerPids)('sandbox init teardown', () => {
  it('does not signal an unrelated process that reuses the exited init PID', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'createos-local-iso-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    await iso.prepareRoot(root);
    const init = await iso.startInit(root);
    cleanup.push(() => init.kill());
    const pid = init.pid ?? -1;
    const initStart = Number((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ')[19]);
    process.kill(pid, 'SIGKILL');
    await init.exited;
    await until('the init PID is free', async () => !(await procExists(pid)));
    // Start times count clock ticks: a process started in the init's own tick would be indistinguishable.
    await until('a later clock tick', async () => Math.floor(Number((await readFile('/proc/uptime', 'utf8')).split(' ')[0]) * 100) > initStart + 1);
    const reuser = await spawnWithPid(pid);
    expect(reuser, 'could not steer a new process onto the old init PID').not.toBeNull();
    if (reuser === null) return;
    cleanup.push(() => void reuser.kill('SIGKILL'));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => reuser.once('exit', (_code, signal) => resolve(signal)));
    init.kill();
    // Our own SIGTERM decides how it ends, unless teardown already sent SIGKILL.
    reuser.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
  });
});
