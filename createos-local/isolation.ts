// Sandbox isolation: each sandbox gets a long-lived init in its own PID (and, with bwrap,
// mount) namespace; processes join it through nsenter, so killing the init kills everything.
// Fallbacks: `unshare --pid --fork --mount-proc`, then a plain process group per process
// (its trees tracked by membership.ts like the others).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { lstat, mkdir, readlink, symlink } from 'node:fs/promises';
import path from 'node:path';
import { identityOf, killIfSame, readStatSync, type PidIdentity } from './process-table';

export type IsolationKind = 'bwrap' | 'pid-namespace' | 'process-group';

export interface SandboxInit {
  /** Host PID of the namespace's init, or null for the process-group fallback. */
  readonly pid: number | null;
  kill(): void;
  readonly exited: Promise<void>;
}

export interface LaunchSpec {
  /** argv run first, where the command runs (it ends by exec'ing the rest); [] for none. */
  prefix: string[];
  cmd: string;
  args: string[];
  /** Sandbox path. */
  cwd: string;
  env: Record<string, string>;
}

export interface Isolation {
  readonly kind: IsolationKind;
  /** True when sandbox paths are what processes see (the files API and processes agree). */
  readonly rooted: boolean;
  prepareRoot(root: string): Promise<void>;
  startInit(root: string): Promise<SandboxInit>;
  /** argv (file first) that runs the command inside the sandbox. */
  command(root: string, init: SandboxInit, spec: LaunchSpec): string[];
}

const BWRAP = '/usr/bin/bwrap';
const NSENTER = '/usr/bin/nsenter';
const UNSHARE = '/usr/bin/unshare';
const ENV = '/usr/bin/env';
const SETSID = '/usr/bin/setsid';
const SLEEP = '/usr/bin/sleep';

function envArgs(env: Record<string, string>): string[] {
  return Object.entries(env).map(([k, v]) => `${k}=${v}`);
}

/** `[prefix] env -i -C cwd K=V... setsid -- cmd args`: clean environment, own session and group. */
function leaderArgv(cwd: string, spec: LaunchSpec): string[] {
  return [...spec.prefix, ENV, '-i', '-C', cwd, ...envArgs(spec.env), SETSID, '--', spec.cmd, ...spec.args];
}

async function ensureLink(target: string, at: string): Promise<void> {
  try {
    const st = await lstat(at);
    if (st.isSymbolicLink() && (await readlink(at)) === target) return;
    return;
  } catch {
    await symlink(target, at);
  }
}

function childExit(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function readInfoPid(child: ReturnType<typeof spawn>, what: string): Promise<number> {
  const info = child.stdio[3];
  if (info === null || info === undefined) throw new Error(`${what}: no info pipe`);
  let text = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<number>((resolve, reject) => {
    const onExit = () => reject(new Error(`${what} exited early: ${stderr.trim()}`));
    child.once('exit', onExit);
    child.once('error', reject);
    info.on('data', (d: Buffer) => {
      text += d.toString();
      const m = /"child-pid":\s*(\d+)/.exec(text);
      if (m?.[1] !== undefined) {
        child.off('exit', onExit);
        resolve(Number(m[1]));
      }
    });
  });
}

/**
 * Kills the namespace's init (and with it every process in the namespace), but only while its
 * PID still names that init: once the init exited, the PID may belong to an unrelated process.
 */
function killer(child: ReturnType<typeof spawn>, init: PidIdentity | null): () => void {
  return () => {
    if (init !== null) killIfSame(init, 'SIGKILL');
    if (child.exitCode !== null || child.signalCode !== null) return;
    // The launcher then reaps the init and exits; if it does not, kill it (Node never signals a reaped child).
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    timer.unref();
    child.once('exit', () => clearTimeout(timer));
  };
}

/** The init's identity, read right after it was found (null if it is already gone). */
const initIdentity = (pid: number): PidIdentity | null => identityOf(readStatSync(pid));

const bwrap: Isolation = {
  kind: 'bwrap',
  rooted: true,
  async prepareRoot(root) {
    for (const dir of ['usr', 'etc', 'proc', 'dev', 'tmp', 'root', 'paperclip-workspace']) await mkdir(path.join(root, dir), { recursive: true });
    for (const link of ['bin', 'sbin', 'lib', 'lib64', 'lib32', 'libx32']) {
      const host = `/${link}`;
      try {
        const st = await lstat(host);
        if (st.isSymbolicLink()) await ensureLink(await readlink(host), path.join(root, link));
        else if (st.isDirectory()) await mkdir(path.join(root, link), { recursive: true });
      } catch {
        // absent on this host
      }
    }
  },
  async startInit(root) {
    const args = ['--bind', root, '/', '--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'];
    for (const link of ['bin', 'sbin', 'lib', 'lib64', 'lib32', 'libx32']) {
      try {
        const st = await lstat(`/${link}`);
        if (!st.isSymbolicLink() && st.isDirectory()) args.push('--ro-bind', `/${link}`, `/${link}`);
      } catch {
        // absent
      }
    }
    args.push('--proc', '/proc', '--dev', '/dev', '--unshare-pid', '--unshare-ipc', '--die-with-parent', '--info-fd', '3', '--chdir', '/', SLEEP, 'infinity');
    const child = spawn(BWRAP, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    const pid = await readInfoPid(child, 'bwrap');
    return { pid, kill: killer(child, initIdentity(pid)), exited: childExit(child) };
  },
  command(_root, init, spec) {
    if (init.pid === null) throw new Error('sandbox init is not running');
    return [NSENTER, '-t', String(init.pid), '-p', '-m', '-r', '-w', '--', ...leaderArgv(spec.cwd, spec)];
  },
};

async function prepareFlatRoot(root: string): Promise<void> {
  for (const dir of ['tmp', 'root', 'paperclip-workspace']) await mkdir(path.join(root, dir), { recursive: true });
}

const pidNamespace: Isolation = {
  kind: 'pid-namespace',
  rooted: false,
  prepareRoot: prepareFlatRoot,
  startInit() {
    // `unshare` prints nothing about its child; the init is unshare's only child.
    const child = spawn(UNSHARE, ['--pid', '--fork', '--mount-proc', '--kill-child', SLEEP, 'infinity'], { stdio: ['ignore', 'ignore', 'pipe'] });
    return new Promise<SandboxInit>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        const started = Date.now();
        const poll = () => {
          let kids = '';
          try {
            kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
          } catch {
            // not yet readable
          }
          const pid = Number(kids.split(/\s+/)[0]);
          if (pid > 0) resolve({ pid, kill: killer(child, initIdentity(pid)), exited: childExit(child) });
          else if (Date.now() - started > 5000) reject(new Error('unshare init did not start'));
          else setTimeout(poll, 5);
        };
        poll();
      });
    });
  },
  command(root, init, spec) {
    if (init.pid === null) throw new Error('sandbox init is not running');
    return [NSENTER, '-t', String(init.pid), '-p', '-m', '--', ...leaderArgv(path.join(root, spec.cwd), spec)];
  },
};

const processGroup: Isolation = {
  kind: 'process-group',
  rooted: false,
  prepareRoot: prepareFlatRoot,
  startInit() {
    let done = (): void => undefined;
    const exited = new Promise<void>((resolve) => (done = resolve));
    return Promise.resolve({ pid: null, kill: () => done(), exited });
  },
  command(root, _init, spec) {
    return leaderArgv(path.join(root, spec.cwd), spec);
  },
};

function works(argv: string[]): boolean {
  const [file, ...args] = argv;
  if (file === undefined || !existsSync(file)) return false;
  const r = spawnSync(file, args, { stdio: 'ignore', timeout: 5000 });
  return r.status === 0;
}

/** Picks the strongest isolation this host supports; `prefer` forces a weaker one (tests). */
const detected = new Map<string, Isolation>();

export function detectIsolation(prefer?: IsolationKind): Isolation {
  const key = prefer ?? 'best';
  const hit = detected.get(key);
  if (hit !== undefined) return hit;
  const found = detectUncached(prefer);
  detected.set(key, found);
  return found;
}

function detectUncached(prefer?: IsolationKind): Isolation {
  const tools = [ENV, SETSID, SLEEP].every((f) => existsSync(f));
  if (!tools) return processGroup;
  const canBwrap = existsSync(NSENTER) && works([BWRAP, '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--unshare-pid', '--die-with-parent', '/usr/bin/true']);
  if (canBwrap && (prefer === undefined || prefer === 'bwrap')) return bwrap;
  const canUnshare = existsSync(NSENTER) && works([UNSHARE, '--pid', '--fork', '--mount-proc', '/usr/bin/true']);
  if (canUnshare && prefer !== 'process-group') return pidNamespace;
  return processGroup;
}
