// Cgroups for tree membership. Each managed process (and exec) gets its own cgroup at
// <hierarchy>/createos-local/<sandbox id>/<process id>. The command's first process joins it
// before it runs anything else (see CgroupTree.join: inside the sandbox, through an inherited
// descriptor of cgroup.procs, so createos-local's own launcher stays outside), and every
// descendant is a member by construction, whatever it does with its session, environment or
// title. No controller is needed: cgroup2 is preferred, else a v1 `pids` or `freezer` hierarchy.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmdirSync } from 'node:fs';
import { readdir, readFile, rmdir } from 'node:fs/promises';
import path from 'node:path';

export interface CgroupHierarchy {
  mount: string;
  version: 1 | 2;
}

export const CGROUP_PARENT = 'createos-local';
const SH = '/bin/sh';
/** The descriptor number of cgroup.procs in the joining process (the 4th stdio entry). */
const JOIN_FD = 3;
/** `sh -c JOIN sh cmd args...` with cgroup.procs open on fd 3: join ("0" is the writer), close it, become cmd. */
const JOIN = `echo 0 >&${JOIN_FD} || exit 126; exec "$@" ${JOIN_FD}>&-`;

export interface CgroupJoin {
  /** argv prefix, run where the command runs (inside the sandbox). */
  argv: string[];
  /** cgroup.procs opened for writing; pass it as the child's fd 3, close it once spawned. */
  fd: number;
}

const unescapeMount = (s: string) => s.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)));

/** cgroup hierarchies mounted here: cgroup2 first, then v1 hierarchies with `pids` or `freezer`. */
export function mountedHierarchies(mounts?: string): CgroupHierarchy[] {
  let text = mounts;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/mounts', 'utf8');
    } catch {
      return [];
    }
  }
  const v2: CgroupHierarchy[] = [];
  const v1: CgroupHierarchy[] = [];
  for (const line of text.split('\n')) {
    const [, where, type, options] = line.split(' ');
    if (where === undefined || options === undefined) continue;
    if (type === 'cgroup2') v2.push({ mount: unescapeMount(where), version: 2 });
    else if (type === 'cgroup' && options.split(',').some((o) => o === 'pids' || o === 'freezer')) v1.push({ mount: unescapeMount(where), version: 1 });
  }
  return [...v2, ...v1];
}

/** True when a real process could be moved into a fresh cgroup of `h` (and the cgroup removed). */
function probe(h: CgroupHierarchy): boolean {
  const dir = path.join(h.mount, CGROUP_PARENT, `probe-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return false;
  }
  let fd: number | null = null;
  try {
    fd = openSync(path.join(dir, 'cgroup.procs'), 'w');
    const r = spawnSync(SH, ['-c', JOIN, 'sh', '/bin/cat', '/proc/self/cgroup'], { encoding: 'utf8', timeout: 5000, env: {}, stdio: ['ignore', 'pipe', 'pipe', fd] });
    return r.status === 0 && r.stdout.split('\n').some((l) => l.endsWith(`/${CGROUP_PARENT}/${path.basename(dir)}`));
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
    try {
      rmdirSync(dir);
    } catch {
      // left behind; harmless and empty
    }
  }
}

let detected: CgroupHierarchy | null | undefined;

/** The first hierarchy this process can really use, probed once. */
export function detectCgroupHierarchy(): CgroupHierarchy | null {
  if (detected !== undefined) return detected;
  detected = existsSync(SH) ? (mountedHierarchies().find(probe) ?? null) : null;
  return detected;
}

const isErrno = (err: unknown, ...codes: string[]) => codes.includes((err as NodeJS.ErrnoException).code ?? '');

/** PIDs listed in one cgroup's cgroup.procs; [] when the cgroup does not exist (any more). */
export async function readCgroupPids(dir: string): Promise<number[]> {
  let text: string;
  try {
    text = await readFile(path.join(dir, 'cgroup.procs'), 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENODEV')) return [];
    throw err;
  }
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map(Number);
}

/** PIDs in every cgroup directly under `dir` (and in `dir` itself). */
export async function readSubtreePids(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
  const lists = await Promise.all([dir, ...names.map((n) => path.join(dir, n))].map(readCgroupPids));
  return lists.flat();
}

/** Removes an empty cgroup; false while it still holds processes. */
export async function removeCgroup(dir: string): Promise<boolean> {
  try {
    await rmdir(dir);
    return true;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return true;
    return false;
  }
}

export class CgroupTree {
  constructor(readonly hierarchy: CgroupHierarchy) {}

  sandboxDir(sandboxId: string): string {
    return path.join(this.hierarchy.mount, CGROUP_PARENT, sandboxId);
  }

  processDir(sandboxId: string, processId: string): string {
    return path.join(this.sandboxDir(sandboxId), processId);
  }

  /** Creates the process's cgroup; the command joins it through `argv` and the descriptor. */
  join(sandboxId: string, processId: string): CgroupJoin {
    const dir = this.processDir(sandboxId, processId);
    mkdirSync(dir, { recursive: true });
    return { argv: [SH, '-c', JOIN, 'sh'], fd: openSync(path.join(dir, 'cgroup.procs'), 'w') };
  }

  /** Removes the sandbox's process cgroups and its own; false if any still holds processes. */
  async removeSandbox(sandboxId: string): Promise<boolean> {
    const dir = this.sandboxDir(sandboxId);
    let names: string[] = [];
    try {
      names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return true;
    }
    const removed = await Promise.all(names.map((n) => removeCgroup(path.join(dir, n))));
    return removed.every(Boolean) && (await removeCgroup(dir));
  }
}

/** PIDs in a sandbox's cgroups on any mounted hierarchy, whichever process created them. */
export async function discoverSandboxCgroupPids(sandboxId: string): Promise<number[]> {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(sandboxId)) return [];
  const lists = await Promise.all(
    mountedHierarchies().map((h) => readSubtreePids(path.join(h.mount, CGROUP_PARENT, sandboxId)).catch(() => [] as number[])),
  );
  return lists.flat();
}
