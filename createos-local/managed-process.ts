// A managed process: the leader runs in the sandbox with stdin as a pipe and stdout/stderr
// feeding one bounded output journal. Tree membership comes from the sandbox's Membership
// (its own cgroup, or the environment marker plus the known leader), re-checked on every read.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { conflict } from './http';
import { OutputJournal, type ExitStatus } from './journal';
import { launch, resolveLeaderPid, type LaunchRequest, type SandboxHandle } from './launch';
import { identityOf, liveIdentity, readStat, type PidIdentity, type ProcStat } from './process-table';
import { newId } from './schemas';
import { killTree, type TreeKillResult } from './tree-kill';

export type ProcessState = 'starting' | 'running' | 'terminating' | 'exited' | 'failed';

export interface ManagedProcessView {
  [key: string]: unknown;
  process_id: string;
  kind: 'process';
  pid: number | null;
  state: ProcessState;
  leader_exited: boolean;
  tree_exited: boolean;
  exit_code: number | null;
  signal: string | null;
  output: { oldest_seq: number; newest_seq: number; bytes: number };
  created_at: string;
  finished_at: string | null;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
/** How long output may still arrive on the pipes after the leader exits (descendants may hold them). */
const DRAIN_AFTER_EXIT_MS = 150;

export class ManagedProcess {
  readonly id = newId('proc');
  readonly createdAt = new Date().toISOString();
  readonly journal: OutputJournal;
  state: ProcessState = 'starting';
  pid: number | null = null;
  private finishedAt: string | null = null;
  private status: ExitStatus = { exit_code: null, signal: null };
  private leaderExited = false;
  /** Set only by sandbox teardown once everything in the sandbox was killed. */
  private treeGone = false;
  private leader: PidIdentity | null = null;
  /** The launcher's host PID when it is not the leader (nsenter); never a tree member. */
  private launcherPid: number | null = null;
  private stdinClosed = false;
  private inputSeq = 0;
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly leaderDone: Promise<void>;
  private markLeaderDone: () => void = () => undefined;

  constructor(
    private readonly sb: SandboxHandle,
    journalBytes: number,
    forcedJournal: boolean,
  ) {
    this.journal = new OutputJournal(journalBytes);
    if (forcedJournal) this.journal.setCap(journalBytes, true);
    this.leaderDone = new Promise((resolve) => (this.markLeaderDone = resolve));
  }

  /** Spawns the leader and resolves once its host PID is known (or it already ended). */
  async start(req: LaunchRequest): Promise<void> {
    const child = launch(this.sb, this.id, req);
    this.child = child;
    if (this.sb.init.pid !== null) this.launcherPid = child.pid ?? null;
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => this.journal.append('stdout', chunk));
    child.stderr.on('data', (chunk: Buffer) => this.journal.append('stderr', chunk));
    this.journal.onPressure = (paused) => {
      for (const s of [child.stdout, child.stderr]) {
        if (paused) s.pause();
        else s.resume();
      }
    };
    let closed = false;
    child.once('close', () => (closed = true));
    const spawned = new Promise<boolean>((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', () => resolve(false));
    });
    child.once('exit', (code, signal) => {
      this.leaderExited = true;
      this.status = { exit_code: code, signal };
      this.finishedAt = new Date().toISOString();
      if (this.state !== 'failed') this.state = 'exited';
      this.markLeaderDone();
      const finish = () => {
        for (const s of [child.stdout, child.stderr]) s.destroy();
        child.stdin.destroy();
        this.journal.finish(this.status);
      };
      if (closed) finish();
      else {
        const timer = setTimeout(finish, DRAIN_AFTER_EXIT_MS);
        child.once('close', () => {
          clearTimeout(timer);
          finish();
        });
      }
    });
    if (!(await spawned)) {
      this.state = 'failed';
      this.leaderExited = true;
      this.treeGone = true;
      this.status = { exit_code: 127, signal: null };
      this.finishedAt = new Date().toISOString();
      this.journal.finish(this.status);
      this.markLeaderDone();
      return;
    }
    this.pid = (await resolveLeaderPid(this.sb, this.id, child)) ?? child.pid ?? null;
    if (this.pid !== null && this.pid !== this.launcherPid) this.leader = identityOf(await readStat(this.pid));
    if (this.state === 'starting') this.state = 'running';
  }

  /** Live members of the tree (host PIDs, non-zombie). */
  members(): Promise<ProcStat[]> {
    return this.sb.membership.tree({ sandboxId: this.sb.id, processId: this.id, leader: this.leader, launcherPid: this.launcherPid });
  }

  /** The leader while it lives (by PID and start time), else null. */
  liveLeader(): Promise<ProcStat | null> {
    return this.leader === null || this.leaderExited ? Promise.resolve(null) : liveIdentity(this.leader);
  }

  /** Asked afresh every time: nothing cached can hide a member that shows up again. */
  private async treeExited(): Promise<boolean> {
    if (this.treeGone) return true;
    if (!this.leaderExited) return false;
    let live: ProcStat[];
    try {
      live = await this.members();
    } catch {
      return false;
    }
    if (live.length > 0) return false;
    await this.sb.membership.release(this.sb.id, this.id).catch(() => false);
    return true;
  }

  async view(): Promise<ManagedProcessView> {
    const treeExited = await this.treeExited();
    return {
      process_id: this.id,
      kind: 'process',
      pid: this.pid,
      state: this.state,
      leader_exited: this.leaderExited,
      tree_exited: treeExited,
      exit_code: this.status.exit_code,
      signal: this.status.signal,
      output: { oldest_seq: this.journal.oldestSeq, newest_seq: this.journal.newestSeq, bytes: this.journal.bytes },
      created_at: this.createdAt,
      finished_at: this.finishedAt,
    };
  }

  /** SIGTERM the whole tree, wait grace, SIGKILL unless `escalate` is false; confirm from /proc. */
  async terminate(graceMs: number, escalate: boolean): Promise<TreeKillResult> {
    if (!this.leaderExited) this.state = 'terminating';
    // In a paused sandbox the launcher stopped itself along with the leader; let it reap.
    if (this.child?.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      try {
        process.kill(this.child.pid, 'SIGCONT');
      } catch {
        // exited meanwhile
      }
    }
    const result = await killTree({ members: () => this.members(), graceMs, escalate, rootPid: this.pid });
    if (result.treeExited) await this.waitLeader(2000);
    return result;
  }

  /** Resolves true once the leader exited, false on timeout or when `signal` aborts. */
  waitLeader(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.leaderExited) return Promise.resolve(true);
    if (signal?.aborted === true) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish = (exited: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(exited);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(this.leaderExited), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      void this.leaderDone.then(() => finish(true));
    });
  }

  /** Resolves true once the whole tree exited, false on timeout or when `signal` aborts. */
  async waitTree(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    if (!(await this.waitLeader(timeoutMs, signal))) return false;
    for (;;) {
      if (await this.treeExited()) return true;
      if (Date.now() >= deadline || signal?.aborted === true) return false;
      await delay(Math.min(25, Math.max(1, deadline - Date.now())), signal);
    }
  }

  /** Sandbox teardown: everything is dead already; record it. */
  markTreeGone(): void {
    this.treeGone = true;
  }

  signal(signal: NodeJS.Signals): void {
    if (this.leaderExited || this.pid === null) throw conflict('process has already exited');
    try {
      process.kill(this.pid, signal);
    } catch (err) {
      throw conflict(`signal failed: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }

  closeStdin(): void {
    if (this.stdinClosed) throw conflict('stdin is already closed');
    this.stdinClosed = true;
    this.child?.stdin.end();
  }

  input(data: Buffer): number {
    if (this.stdinClosed || this.leaderExited || this.child === null) throw conflict('stdin is closed');
    this.child.stdin.write(data);
    this.inputSeq += 1;
    return this.inputSeq;
  }
}
