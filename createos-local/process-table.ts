// Reads the host process table from /proc. Every process started in a sandbox carries
// CREATEOS_LOCAL_SANDBOX_ID (and CREATEOS_LOCAL_PROCESS_ID for its managed process or exec)
// in its environment, so membership survives setsid, reparenting and PID namespaces.
import { readdir, readFile } from 'node:fs/promises';

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

/** Live, non-zombie OS processes belonging to the sandbox (host PIDs). */
export async function findSandboxProcesses(sandboxId: string): Promise<Array<{ pid: number; comm: string; state: string }>> {
  const all = await scanMarked();
  return all.filter((p) => p.sandboxId === sandboxId && isLive(p)).map((p) => ({ pid: p.pid, comm: p.comm, state: p.state }));
}

/** Live members of one managed process (or exec) tree. */
export async function findTreeProcesses(sandboxId: string, processId: string): Promise<MarkedProc[]> {
  const all = await scanMarked();
  return all.filter((p) => p.sandboxId === sandboxId && p.processId === processId && isLive(p));
}

export async function pidAlive(pid: number): Promise<boolean> {
  const stat = await readStat(pid);
  return stat !== null && isLive(stat);
}
