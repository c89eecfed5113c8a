// Kills a set of processes read from /proc by process group, deepest groups first and the
// root group last. Zombie-only groups count as stopped and are never signalled; pgid <= 1 and
// our own group are never signalled; only ESRCH is tolerated (EPERM and the rest are failures).
import { readFileSync } from 'node:fs';
import { isLive, parseStat, type ProcStat } from './process-table';

export interface TreeKillOptions {
  /** Re-reads the live members of the tree (host PIDs, non-zombie). */
  members: () => Promise<ProcStat[]>;
  graceMs: number;
  /** false under the stubborn-tree drill: SIGTERM only. */
  escalate: boolean;
  rootPid?: number | null;
  pollMs?: number;
  killWaitMs?: number;
}

export interface TreeKillResult {
  treeExited: boolean;
  error: string | null;
}

const ownPgid = (() => {
  try {
    return parseStat(readFileSync('/proc/self/stat', 'utf8'))?.pgid ?? -1;
  } catch {
    return -1;
  }
})();

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function depthOf(p: ProcStat, byPid: Map<number, ProcStat>): number {
  let depth = 0;
  let cur = byPid.get(p.ppid);
  while (cur !== undefined && depth < 4096) {
    depth += 1;
    cur = byPid.get(cur.ppid);
  }
  return depth;
}

/** Sends `signal` to each live group (or to single members of groups led by an outsider). */
export function signalGroups(members: ProcStat[], signal: NodeJS.Signals, rootPid: number | null = null): void {
  const live = members.filter(isLive);
  const byPid = new Map(live.map((p) => [p.pid, p]));
  const groups = new Map<number, { members: ProcStat[]; depth: number; root: boolean }>();
  for (const p of live) {
    const g = groups.get(p.pgid) ?? { members: [], depth: 0, root: false };
    g.members.push(p);
    g.depth = Math.max(g.depth, depthOf(p, byPid));
    if (p.pid === rootPid) g.root = true;
    groups.set(p.pgid, g);
  }
  const ordered = [...groups.entries()].sort(([, a], [, b]) => Number(a.root) - Number(b.root) || b.depth - a.depth);
  for (const [pgid, group] of ordered) {
    const ownedGroup = pgid > 1 && pgid !== ownPgid && byPid.has(pgid);
    const targets = ownedGroup ? [-pgid] : group.members.map((m) => m.pid).filter((pid) => pid > 1 && pid !== process.pid);
    for (const target of targets) {
      try {
        process.kill(target, signal);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    }
  }
}

async function waitGone(members: () => Promise<ProcStat[]>, ms: number, pollMs: number): Promise<ProcStat[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const live = await members();
    if (live.length === 0 || Date.now() >= deadline) return live;
    await delay(Math.min(pollMs, Math.max(1, deadline - Date.now())));
  }
}

/** SIGTERM (plus SIGCONT so stopped members see it), wait grace, SIGKILL, confirm from /proc. */
export async function killTree(opts: TreeKillOptions): Promise<TreeKillResult> {
  const pollMs = opts.pollMs ?? 20;
  const rootPid = opts.rootPid ?? null;
  try {
    let live = await opts.members();
    if (live.length === 0) return { treeExited: true, error: null };
    signalGroups(live, 'SIGTERM', rootPid);
    signalGroups(live, 'SIGCONT', rootPid);
    live = await waitGone(opts.members, opts.graceMs, pollMs);
    if (live.length === 0) return { treeExited: true, error: null };
    if (!opts.escalate) return { treeExited: false, error: null };
    signalGroups(live, 'SIGKILL', rootPid);
    live = await waitGone(opts.members, opts.killWaitMs ?? 5000, pollMs);
    return { treeExited: live.length === 0, error: live.length === 0 ? null : 'process tree survived SIGKILL' };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { treeExited: false, error: `kill failed: ${e.code ?? e.message}` };
  }
}
