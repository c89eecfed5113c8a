// Reads the host process table from /proc. Every process started in a sandbox carries
// CREATEOS_LOCAL_SANDBOX_ID (and CREATEOS_LOCAL_PROCESS_ID for its managed process or exec)
// in its environment. That marker is only a fallback for tree membership (a process can clear
// it, and it reads empty mid-execve); see membership.ts for the cgroup method.
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { discoverSandboxCgroupPids } from './cgroups';

export const SANDBOX_ENV = 'CREATEOS_LOCAL_SANDBOX_ID';
export const PROCESS_ENV = 'CREATEOS_LOCAL_PROCESS_ID';

export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
  comm: string;
  startTime: string;
}

export interface MarkedProc extends ProcStat {
  sandboxId: string;
  processId: string | null;
}

const SANDBOX_NEEDLE = Buffer.from(`${SANDBOX_ENV}=`);

/** Parses /proc/PID/stat; the command name may itself contain spaces and parentheses. */
export function parseStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = text.slice(close + 2).split(' ');
  const pid = Number(text.slice(0, open).trim());
  const [state, ppid, pgid, sid] = rest;
  const startTime = rest[19];
  if (state === undefined || ppid === undefined || pgid === undefined || sid === undefined || startTime === undefined) return null;
  return { pid, ppid: Number(ppid), pgid: Number(pgid), sid: Number(sid), state, comm: text.slice(open + 1, close), startTime };
}

export async function readStat(pid: number): Promise<ProcStat | null> {
  try {
    return parseStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export function readStatSync(pid: number): ProcStat | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** A PID together with its start time: the same PID with another start time is another process. */
export interface PidIdentity {
  pid: number;
  startTime: string;
}

export function identityOf(stat: ProcStat | null): PidIdentity | null {
  return stat === null ? null : { pid: stat.pid, startTime: stat.startTime };
}

/** The live (non-zombie) process `id` still names, or null once it exited or its PID was reused. */
export async function liveIdentity(id: PidIdentity): Promise<ProcStat | null> {
  const stat = await readStat(id.pid);
  return stat !== null && stat.startTime === id.startTime && isLive(stat) ? stat : null;
}

/** Signals `id` only if its PID still names the same process; true when a signal was sent. */
export function killIfSame(id: PidIdentity, signal: NodeJS.Signals): boolean {
  const stat = readStatSync(id.pid);
  if (stat === null || stat.startTime !== id.startTime) return false;
  try {
    process.kill(id.pid, signal);
    return true;
  } catch {
    return false;
  }
}

function envValue(environ: Buffer, key: string): string | null {
  for (const entry of environ.toString('utf8').split('\0')) {
    if (entry.startsWith(`${key}=`)) return entry.slice(key.length + 1);
  }
  return null;
}

async function readMarked(pid: number): Promise<MarkedProc | null> {
  let environ: Buffer;
  try {
    environ = await readFile(`/proc/${pid}/environ`);
  } catch {
    return null;
  }
  if (environ.indexOf(SANDBOX_NEEDLE) < 0) return null;
  const sandboxId = envValue(environ, SANDBOX_ENV);
  if (sandboxId === null) return null;
  const stat = await readStat(pid);
  if (stat === null) return null;
  return { ...stat, sandboxId, processId: envValue(environ, PROCESS_ENV) };
}

let running: Promise<MarkedProc[]> | null = null;
let queued: Promise<MarkedProc[]> | null = null;

/**
 * Every process (zombies included) that carries a sandbox marker. Concurrent callers share
 * scans, but each caller gets a scan that started after its call (never a stale one).
 */
export function scanMarked(): Promise<MarkedProc[]> {
  if (running === null) {
    running = rawScan().finally(() => {
      running = null;
    });
    return running;
  }
  queued ??= running
    .catch(() => undefined)
    .then(() => {
      queued = null;
      return scanMarked();
    });
  return queued;
}

async function rawScan(): Promise<MarkedProc[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const self = process.pid;
  const pids = names.filter((n) => /^\d+$/.test(n)).map(Number).filter((p) => p !== self);
  const found = await Promise.all(pids.map(readMarked));
  return found.filter((p): p is MarkedProc => p !== null);
}

export function isLive(p: ProcStat): boolean {
  return !p.state.startsWith('Z') && !p.state.startsWith('X');
}

/** Live stats of `pids` (exited and zombie processes left out), in PID order. */
export async function liveStats(pids: Iterable<number>): Promise<ProcStat[]> {
  const stats = await Promise.all([...new Set(pids)].sort((a, b) => a - b).map(readStat));
  return stats.filter((s): s is ProcStat => s !== null && isLive(s));
}

/**
 * Live, non-zombie OS processes belonging to the sandbox (host PIDs): members of its cgroups
 * (whichever server process created them) plus every process carrying its marker. Includes
 * createos-local's own launchers (nsenter) while they run.
 */
export async function findSandboxProcesses(sandboxId: string): Promise<Array<{ pid: number; sid: number; comm: string; state: string }>> {
  const [marked, grouped] = await Promise.all([scanMarked(), discoverSandboxCgroupPids(sandboxId)]);
  const pids = new Set(marked.filter((p) => p.sandboxId === sandboxId).map((p) => p.pid));
  for (const pid of grouped) pids.add(pid);
  return (await liveStats(pids)).map((p) => ({ pid: p.pid, sid: p.sid, comm: p.comm, state: p.state }));
}
