// A managed process: the leader runs in the sandbox with stdin as a pipe and stdout/stderr
// feeding one bounded output journal. Tree membership is read from /proc (environment marker).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { conflict } from './http';
import { OutputJournal, type ExitStatus } from './journal';
import { launch, resolveLeaderPid, type LaunchRequest, type SandboxHandle } from './launch';
import { findTreeProcesses } from './process-table';
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

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
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
  private treeGone = false;
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
    if (this.state === 'starting') this.state = 'running';
  }

  private async treeExited(): Promise<boolean> {
    if (this.treeGone) return true;
    if (!this.leaderExited) return false;
    const live = await findTreeProcesses(this.sb.id, this.id);
    if (live.length === 0) this.treeGone = true;
    return this.treeGone;
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
    if (this.child?.pid !== undefined && this.child.exitCode === null) {
      try {
        process.kill(this.child.pid, 'SIGCONT');
      } catch {
        // exited meanwhile
      }
    }
    const result = await killTree({ members: () => findTreeProcesses(this.sb.id, this.id), graceMs, escalate, rootPid: this.pid });
    if (result.treeExited) {
      await this.waitLeader(2000);
      this.treeGone = this.leaderExited;
    }
    return result;
  }

  /** Resolves true once the leader exited, false on timeout. */
  async waitLeader(timeoutMs: number): Promise<boolean> {
    if (this.leaderExited) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const done = await Promise.race([this.leaderDone.then(() => true), timeout]);
    clearTimeout(timer);
    return done;
  }

  async waitTree(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    if (!(await this.waitLeader(timeoutMs))) return false;
    for (;;) {
      if (await this.treeExited()) return true;
      if (Date.now() >= deadline) return false;
      await delay(Math.min(25, Math.max(1, deadline - Date.now())));
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
