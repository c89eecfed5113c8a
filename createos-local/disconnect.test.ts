// A client that goes away: an abandoned /wait stops waiting, an abandoned exec is killed.
import { afterEach, describe, it, vi } from 'vitest';
import { ManagedProcess } from './managed-process';
import { eachTestWithHarness, getProcess, hostPidsByArgv, KEY, procExists, startProcess, uniqueSleep, until, type Harness } from './test-helpers';

let h: Harness;
let sb: string;
eachTestWithHarness((harness, sandboxId) => {
  h = harness;
  sb = sandboxId;
}, { withSandbox: true });
afterEach(() => {
  vi.restoreAllMocks();
});

/** Records whether each promise returned by `method` has settled. */
function watchSettled(method: 'waitTree' | 'waitLeader'): Array<{ settled: boolean }> {
  const calls: Array<{ settled: boolean }> = [];
  const original = Object.getOwnPropertyDescriptor(ManagedProcess.prototype, method)?.value as (this: ManagedProcess, ...args: unknown[]) => Promise<boolean>;
  vi.spyOn(ManagedProcess.prototype, method).mockImplementation(function watched(this: ManagedProcess, ...args: unknown[]) {
    const entry = { settled: false };
    calls.push(entry);
    const p = original.apply(this, args);
    void p.finally(() => (entry.settled = true));
    return p;
  });
  return calls;
}

async function abandon(path: string, init: RequestInit, started: () => boolean | Promise<boolean>): Promise<void> {
  const ac = new AbortController();
  const req = fetch(`${h.server.url}${path}`, { ...init, headers: { 'x-api-key': KEY, ...(init.headers as Record<string, string> | undefined) }, signal: ac.signal });
  req.catch(() => undefined);
  await until('the request is being served', started);
  ac.abort();
  await req.catch(() => undefined);
}

describe('client disconnects', () => {
  it('an abandoned tree wait stops polling the process table', async () => {
    const p = await startProcess(h, sb, `setsid sleep ${uniqueSleep()} & exit 0`);
    await until('leader exited', async () => (await getProcess(h, sb, p.process_id)).leader_exited);
    const calls = watchSettled('waitTree');
    await abandon(`/v1/sandboxes/${sb}/processes/${p.process_id}/wait?scope=tree&timeout_ms=600000`, {}, () => calls.length === 1);
    await until('the wait ended', () => calls[0]?.settled === true, 5000);
  });

  it('an abandoned leader wait ends too', async () => {
    const p = await startProcess(h, sb, `exec sleep ${uniqueSleep()}`);
    const calls = watchSettled('waitLeader');
    await abandon(`/v1/sandboxes/${sb}/processes/${p.process_id}/wait?scope=leader&timeout_ms=600000`, {}, () => calls.length === 1);
    await until('the wait ended', () => calls[0]?.settled === true, 5000);
  });

  it('an exec whose client disconnects is killed with its tree', async () => {
    const dur = uniqueSleep();
    const child = uniqueSleep();
    let pids: number[] = [];
    await abandon(
      `/v1/sandboxes/${sb}/exec`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cmd: 'bash', args: ['-c', `setsid sleep ${child} & exec sleep ${dur}`] }) },
      async () => {
        pids = [...(await hostPidsByArgv(['sleep', dur])), ...(await hostPidsByArgv(['sleep', child]))];
        return pids.length === 2;
      },
    );
    await until('the exec tree was killed', async () => {
      for (const pid of pids) if (await procExists(pid)) return false;
      return true;
    }, 5000);
  });
});
