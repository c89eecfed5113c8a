// Starts one command inside a sandbox with a clean environment carrying the sandbox and
// process markers, joined to its own tree (cgroup) before it runs, and finds the leader's host PID.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams, type StdioOptions } from 'node:child_process';
import { closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Isolation, SandboxInit } from './isolation';
import type { Membership } from './membership';
import { PROCESS_ENV, SANDBOX_ENV } from './process-table';

export interface SandboxHandle {
  readonly id: string;
  readonly root: string;
  readonly isolation: Isolation;
  readonly init: SandboxInit;
  readonly envs: Record<string, string>;
  readonly membership: Membership;
  /** Live launchers (nsenter); they stop themselves when their child stops, so resume must continue them. */
  readonly launchers: Set<ChildProcess>;
}

/** SIGCONT to every live launcher of the sandbox. */
export function continueLaunchers(sb: SandboxHandle): void {
  for (const child of sb.launchers) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(child.pid, 'SIGCONT');
    } catch {
      // exited meanwhile
    }
  }
}

export interface LaunchRequest {
  cmd: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

const BASE_ENV: Record<string, string> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: '/root',
  LANG: 'C.UTF-8',
  TERM: 'dumb',
};

export function launch(sb: SandboxHandle, markerId: string, req: LaunchRequest): ChildProcessWithoutNullStreams {
  const env = { ...BASE_ENV, ...sb.envs, ...req.env, [SANDBOX_ENV]: sb.id, [PROCESS_ENV]: markerId };
  const join = sb.membership.join(sb.id, markerId);
  try {
    const [file, ...args] = sb.isolation.command(sb.root, sb.init, { prefix: join?.argv ?? [], cmd: req.cmd, args: req.args, cwd: req.cwd, env });
    if (file === undefined) throw new Error('empty launch command');
    const stdio: StdioOptions = join === null ? ['pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe', join.fd];
    // The launcher itself (nsenter or env) runs with a minimal environment and no markers.
    const child = spawn(file, args, { stdio, env: { PATH: BASE_ENV['PATH'] ?? '/usr/bin:/bin' } }) as ChildProcessWithoutNullStreams;
    sb.launchers.add(child);
    child.once('exit', () => sb.launchers.delete(child));
    child.once('error', () => sb.launchers.delete(child));
    return child;
  } finally {
    // The child holds its own copy of the descriptor from here on.
    if (join !== null) closeSync(join.fd);
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Host PID of the command: the launcher's only child under nsenter, the launcher itself otherwise. */
export async function resolveLeaderPid(sb: SandboxHandle, markerId: string, child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const launcherPid = child.pid;
  const marker = Buffer.from(`${PROCESS_ENV}=${markerId}\0`);
  if (launcherPid === undefined) return null;
  const deadline = Date.now() + 2000;
  let leader: number | null = sb.init.pid === null ? launcherPid : null;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      if (leader === null) {
        const kids = (await readFile(`/proc/${launcherPid}/task/${launcherPid}/children`, 'utf8')).trim();
        const first = Number(kids.split(/\s+/)[0]);
        if (first > 0) leader = first;
      }
      // Answer only once the leader carries its marker (it has gone through `env`), so the
      // process table shows it as soon as the create reply is sent.
      if (leader !== null && (await readFile(`/proc/${leader}/environ`)).includes(marker)) return leader;
    } catch {
      return leader;
    }
    await delay(1);
  }
  return leader;
}
