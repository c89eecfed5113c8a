// Sandbox registry: one directory and one isolated process tree per sandbox, with the
// lifecycle creating → running ⇄ pausing/paused/resuming → destroying → (gone: 404).
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { conflict, HttpError, notFound } from './http';
import type { Isolation, SandboxInit } from './isolation';
import type { ChildProcess } from 'node:child_process';
import { continueLaunchers, type SandboxHandle } from './launch';
import type { ManagedProcess } from './managed-process';
import { detectMembership, type Membership } from './membership';
import type { ProcStat } from './process-table';
import { DEFAULT_ROOTFS, newId, SHAPES, type CreateSandboxBody, type Shape } from './schemas';

export type SandboxStatus = 'creating' | 'running' | 'pausing' | 'paused' | 'resuming' | 'destroying' | 'error' | 'failed';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** How long pause (and resume) may take to stop (continue) every member. */
export const TRANSITION_MS = 5000;
const isStopped = (state: string) => state === 'T' || state === 't';

/** Waits for `p` at most `ms`, leaving no timer behind. */
async function within(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export class Sandbox implements SandboxHandle {
  readonly id = newId('sb');
  readonly createdAt = new Date().toISOString();
  status: SandboxStatus = 'creating';
  readonly processes = new Map<string, ManagedProcess>();
  readonly launchers = new Set<ChildProcess>();
  readonly times: { running_at?: string; paused_at?: string; last_resumed_at?: string; spawn_ms?: number } = {};
  private initHandle: SandboxInit | null = null;
  ready: Promise<void> = Promise.resolve();
  destroying: Promise<void> | null = null;
  forcedJournal = false;
  /** Why the last pause or resume failed (shown while the status is `error`). */
  statusReason: string | null = null;
  readonly dir: string;

  constructor(
    dataDir: string,
    readonly isolation: Isolation,
    readonly membership: Membership,
    readonly shape: Shape,
    readonly body: CreateSandboxBody,
    public journalBytes: number,
  ) {
    this.dir = path.join(dataDir, 'sandboxes', this.id);
  }

  get root(): string {
    return path.join(this.dir, 'root');
  }

  get init(): SandboxInit {
    if (this.initHandle === null) throw conflict(`sandbox ${this.id} is not running`);
    return this.initHandle;
  }

  get envs(): Record<string, string> {
    return this.body.envs ?? {};
  }

  async boot(): Promise<void> {
    const started = Date.now();
    await mkdir(this.root, { recursive: true });
    await this.isolation.prepareRoot(this.root);
    this.initHandle = await this.isolation.startInit(this.root);
    this.times.spawn_ms = Date.now() - started;
    this.times.running_at = new Date().toISOString();
    if (this.status === 'creating') this.status = 'running';
    void this.initHandle.exited.then(() => {
      if (this.destroying === null) this.status = 'failed';
    });
  }

  view(): Record<string, unknown> {
    const b = this.body;
    return {
      id: this.id,
      status: this.status,
      vcpu: this.shape.vcpu,
      mem_mib: this.shape.mem_mib,
      disk_mib: b.disk_mib ?? this.shape.default_disk_mib,
      created_at: this.createdAt,
      ingress_enabled: b.ingress_enabled ?? false,
      shape: this.shape.id,
      rootfs: b.rootfs ?? DEFAULT_ROOTFS,
      region: b.region ?? 'local',
      ...(b.name !== undefined ? { name: b.name } : {}),
      ...(b.envs !== undefined ? { envs: Object.keys(b.envs) } : {}),
      ...(b.auto_pause_after_seconds !== undefined ? { auto_pause_after_seconds: b.auto_pause_after_seconds } : {}),
      ...this.times,
      ...(this.status === 'error' && this.statusReason !== null ? { status_reason: this.statusReason } : {}),
    };
  }

  /** Waits out `creating`, then requires `running` (409 otherwise). */
  async requireRunning(): Promise<void> {
    await this.ready.catch(() => undefined);
    if (this.status !== 'running') throw conflict(`sandbox ${this.id} is ${this.status}, not running`, { sandbox_status: this.status });
  }

  /** Live members of every tree in the sandbox, plus each known leader while it lives. */
  async liveMembers(): Promise<ProcStat[]> {
    const found = await this.membership.sandbox(this.id);
    const seen = new Set(found.map((p) => p.pid));
    const leaders = await Promise.all([...this.processes.values()].map((p) => p.liveLeader()));
    for (const leader of leaders) if (leader !== null && !seen.has(leader.pid)) found.push(leader);
    return found;
  }

  /**
   * Sends `signal` to every live member until `done` holds for all, in as many scans in a row as
   * the membership method needs to be believed; false if that did not happen within `ms`.
   */
  async signalAll(signal: NodeJS.Signals, done: (state: string) => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    let clean = 0;
    for (;;) {
      const pending = (await this.liveMembers()).filter((p) => !done(p.state));
      if (pending.length === 0) {
        clean += 1;
        if (clean >= this.membership.confirmScans) return true;
        continue;
      }
      clean = 0;
      if (Date.now() > deadline) return false;
      for (const p of pending) {
        try {
          process.kill(p.pid, signal);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
        }
      }
      await delay(5);
    }
  }

  async teardown(): Promise<void> {
    await this.ready.catch(() => undefined);
    this.initHandle?.kill();
    const killed = await this.signalAll('SIGKILL', () => false, 5000);
    // Stopped launchers (a paused sandbox) must run again to reap their children.
    continueLaunchers(this);
    if (this.initHandle !== null) await within(this.initHandle.exited, 5000);
    for (const proc of this.processes.values()) {
      await proc.waitLeader(2000);
      if (killed) proc.markTreeGone();
    }
    await this.releaseMembership(5000);
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Removes the sandbox's cgroups once their last (killed) members are gone, bounded. */
  private async releaseMembership(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (await this.membership.releaseSandbox(this.id).catch(() => false)) return true;
      if (Date.now() > deadline) return false;
      await delay(10);
    }
  }
}

function failTransition(sb: Sandbox, reason: string): void {
  sb.status = 'error';
  sb.statusReason = reason;
}

export interface RegistryOptions {
  dataDir: string;
  isolation: Isolation;
  journalBytes: number;
  /** Default: detectMembership(). */
  membership?: Membership;
}

export class SandboxRegistry {
  private readonly sandboxes = new Map<string, Sandbox>();
  readonly membership: Membership;

  constructor(private readonly opts: RegistryOptions) {
    this.membership = opts.membership ?? detectMembership();
  }

  create(body: CreateSandboxBody): Sandbox {
    const shape = SHAPES.find((s) => s.id === body.shape);
    if (shape === undefined) throw new HttpError(400, 'invalid_request', `body.shape: unknown shape "${body.shape}"; see GET /v1/shapes`);
    const sb = new Sandbox(this.opts.dataDir, this.opts.isolation, this.membership, shape, body, body.journal_bytes ?? this.opts.journalBytes);
    this.sandboxes.set(sb.id, sb);
    sb.ready = sb.boot().catch(() => {
      sb.status = 'failed';
    });
    return sb;
  }

  get(id: string): Sandbox {
    const sb = this.sandboxes.get(id);
    if (sb === undefined) throw notFound(`sandbox ${id} not found`);
    return sb;
  }

  all(): Sandbox[] {
    return [...this.sandboxes.values()];
  }

  async destroy(id: string): Promise<void> {
    const sb = this.get(id);
    if (sb.destroying === null) {
      sb.status = 'destroying';
      sb.destroying = sb.teardown().finally(() => this.sandboxes.delete(id));
    }
    await sb.destroying;
  }

  /** 202 pausing (stop completes in the background), 200 if already paused, 409 otherwise. */
  pause(id: string): { code: number; status: SandboxStatus } {
    const sb = this.get(id);
    if (sb.status === 'paused') return { code: 200, status: 'paused' };
    if (sb.status !== 'running') throw conflict(`sandbox ${id} is ${sb.status}; only a running sandbox can be paused`, { sandbox_status: sb.status });
    sb.status = 'pausing';
    // Paused only once every member was seen stopped; otherwise `error` (resume recovers it).
    void sb
      .signalAll('SIGSTOP', isStopped, TRANSITION_MS)
      .then((stopped) => {
        if (sb.status !== 'pausing') return;
        if (!stopped) return failTransition(sb, `pause: not every process stopped within ${TRANSITION_MS} ms`);
        sb.status = 'paused';
        sb.statusReason = null;
        sb.times.paused_at = new Date().toISOString();
      })
      .catch((err: unknown) => {
        if (sb.status === 'pausing') failTransition(sb, `pause: ${(err as Error).message}`);
      });
    return { code: 202, status: 'pausing' };
  }

  resume(id: string): { code: number; status: SandboxStatus } {
    const sb = this.get(id);
    if (sb.status === 'running') return { code: 200, status: 'running' };
    if (sb.status !== 'paused' && sb.status !== 'error') throw conflict(`sandbox ${id} is ${sb.status}; only a paused sandbox can be resumed`, { sandbox_status: sb.status });
    sb.status = 'resuming';
    void sb
      .signalAll('SIGCONT', (s) => !isStopped(s), TRANSITION_MS)
      .then((continued) => {
        continueLaunchers(sb);
        if (sb.status !== 'resuming') return;
        if (!continued) return failTransition(sb, `resume: not every process continued within ${TRANSITION_MS} ms`);
        sb.status = 'running';
        sb.statusReason = null;
        sb.times.last_resumed_at = new Date().toISOString();
      })
      .catch((err: unknown) => {
        if (sb.status === 'resuming') failTransition(sb, `resume: ${(err as Error).message}`);
      });
    return { code: 202, status: 'resuming' };
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.all().map((sb) => this.destroy(sb.id).catch(() => undefined)));
  }
}
