// Which processes belong to a managed process's tree, and to a sandbox.
// - cgroup (preferred): each tree has its own cgroup, joined by the command's first process
//   before anything else runs, so descendants are members however they detach (setsid,
//   `env -i`, retitling).
// - marker (fallback, no writable cgroup hierarchy): the environment marker from /proc, plus the
//   known leader while it lives (checked by start time); an empty answer is believed only when
//   two scans in a row agree, because /proc/PID/environ reads empty while a process is mid-execve.
// Either way the launcher (nsenter, a createos-local helper outside the sandbox) is no member.
import { CgroupTree, detectCgroupHierarchy, readCgroupPids, readSubtreePids, removeCgroup, type CgroupJoin } from './cgroups';
import { isLive, liveIdentity, liveStats, scanMarked, type MarkedProc, type PidIdentity, type ProcStat } from './process-table';

export type MembershipKind = 'cgroup' | 'marker';

export interface TreeRef {
  sandboxId: string;
  processId: string;
  /** The leader, once known; counted as a member while this identity is alive. */
  leader: PidIdentity | null;
  /** Host PID of the launcher when it is not the leader itself (nsenter). */
  launcherPid: number | null;
}

export interface Membership {
  readonly kind: MembershipKind;
  /** One line for the startup log. */
  readonly description: string;
  /** Scans in a row that must agree before "nothing (more) to do" is believed. */
  readonly confirmScans: number;
  /** How the command joins its tree before it runs anything (null: nothing to join). */
  join(sandboxId: string, processId: string): CgroupJoin | null;
  /** Live (non-zombie) members of one tree. */
  tree(ref: TreeRef): Promise<ProcStat[]>;
  /** Live members of every tree of the sandbox. */
  sandbox(sandboxId: string): Promise<ProcStat[]>;
  /** Forgets an empty tree (removes its cgroup); false while it still has members. */
  release(sandboxId: string, processId: string): Promise<boolean>;
  releaseSandbox(sandboxId: string): Promise<boolean>;
}

/** `found` without the launcher, plus the leader if it is alive and missing. */
async function withLeader(found: ProcStat[], ref: TreeRef): Promise<ProcStat[]> {
  const members = found.filter((p) => p.pid !== ref.launcherPid);
  if (ref.leader === null || ref.leader.pid === ref.launcherPid || members.some((p) => p.pid === ref.leader?.pid)) return members;
  const leader = await liveIdentity(ref.leader);
  return leader === null ? members : [...members, leader];
}

function cgroupMembership(tree: CgroupTree): Membership {
  const { mount, version } = tree.hierarchy;
  return {
    kind: 'cgroup',
    description: `createos-local membership: cgroup${version === 2 ? '2' : ' v1'} at ${mount} (one cgroup per process tree)`,
    confirmScans: 1,
    join: (sandboxId, processId) => tree.join(sandboxId, processId),
    async tree(ref) {
      return withLeader(await liveStats(await readCgroupPids(tree.processDir(ref.sandboxId, ref.processId))), ref);
    },
    async sandbox(sandboxId) {
      return liveStats(await readSubtreePids(tree.sandboxDir(sandboxId)));
    },
    release: (sandboxId, processId) => removeCgroup(tree.processDir(sandboxId, processId)),
    releaseSandbox: (sandboxId) => tree.removeSandbox(sandboxId),
  };
}

/** Marker membership; `scan` is injectable for tests. */
export function markerMembership(reason: string, scan: () => Promise<MarkedProc[]> = scanMarked): Membership {
  const treeOnce = async (ref: TreeRef) =>
    withLeader((await scan()).filter((p) => p.sandboxId === ref.sandboxId && p.processId === ref.processId && isLive(p)), ref);
  return {
    kind: 'marker',
    description: `createos-local membership: environment marker (${reason}; a process that clears its environment escapes tree tracking)`,
    confirmScans: 2,
    join: () => null,
    async tree(ref) {
      const first = await treeOnce(ref);
      return first.length > 0 ? first : treeOnce(ref);
    },
    async sandbox(sandboxId) {
      return (await scan()).filter((p) => p.sandboxId === sandboxId && isLive(p));
    },
    release: () => Promise.resolve(true),
    releaseSandbox: () => Promise.resolve(true),
  };
}

const chosen = new Map<string, Membership>();

/** cgroup where a hierarchy is writable, else marker; CREATEOS_LOCAL_MEMBERSHIP=marker forces the fallback. */
export function detectMembership(): Membership {
  const want = process.env['CREATEOS_LOCAL_MEMBERSHIP'] === 'marker' ? 'marker' : 'best';
  const hit = chosen.get(want);
  if (hit !== undefined) return hit;
  let found: Membership;
  if (want === 'marker') found = markerMembership('forced by CREATEOS_LOCAL_MEMBERSHIP=marker');
  else {
    const hierarchy = detectCgroupHierarchy();
    found = hierarchy === null ? markerMembership('no writable cgroup hierarchy') : cgroupMembership(new CgroupTree(hierarchy));
  }
  chosen.set(want, found);
  return found;
}
