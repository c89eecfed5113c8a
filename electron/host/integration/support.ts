// Shared setup of the host integration tests: a real createos-local in a temporary directory, a
// browser-mode host on a fresh data dir, fault drills over /admin/faults, and waits on lease and
// tail conditions (events, with deadlines) and on the OS process table (/proc, with deadlines).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRouterClient } from '@orpc/server';
import { afterEach, beforeEach, vi } from 'vitest';
import { startCreateosLocal, type CreateosLocal, type FaultSpec } from '../../../createos-local/server';
import type { Lease, TailEntry } from '../../../shared/domain';
import { createHost, type Host } from '../compose';
import { parseCreateosConfig } from '../createos/config';
import { mapErrorsInterceptor } from '../error-interceptor';
import type { HostServices } from '../services';
import { FileSecretStore } from '../settings/secret-store';

export const ACTOR = 'integration-test';

/** Test timeouts, above every deadline a test waits on, so a stuck wait reports what it waited for. */
export const SLOW_TEST_MS = 60_000;
export const CRASH_TEST_MS = 120_000;

export interface Provider {
  readonly local: CreateosLocal;
  readonly url: string;
  readonly apiKey: string;
  /** Arms a fault drill; resolves with its id. */
  arm(spec: FaultSpec): Promise<string>;
  disarm(id: string): Promise<void>;
  /** Calls the provider API directly (not through the host): `data` of the envelope, or throws. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** Creates a sandbox through the provider API and waits until it runs. */
  createSandbox(): Promise<string>;
}

export interface Rig {
  readonly root: string;
  readonly provider: Provider;
  /** Every line the hosts of this rig logged. */
  readonly logs: string[];
  /** The data dir of the hosts (each test gets a fresh one). */
  readonly dataDir: string;
  /** Starts a host on the rig's data dir (after a previous one was disposed or killed). */
  startHost(): Promise<Host>;
  close(): Promise<void>;
}

/** Starts createos-local on a free port, in a fresh temporary directory. */
export async function startProvider(root: string): Promise<Provider> {
  const apiKey = `lw-it-key-${randomBytes(12).toString('hex')}`;
  const local = await startCreateosLocal({ apiKey, dataDir: join(root, 'provider'), port: 0 });
  const request = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
    const response = await fetch(`${local.url}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      // not JSON: json stays null
    }
    return { status: response.status, json };
  };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const { status, json } = await request(method, path, body);
    if (status < 200 || status > 299) throw new Error(`provider ${method} ${path} answered ${status}: ${JSON.stringify(json)}`);
    return (json as { data: T }).data;
  };
  return {
    local,
    url: local.url,
    apiKey,
    async arm(spec) {
      return (await call<{ id: string }>('POST', '/admin/faults', spec)).id;
    },
    async disarm(id) {
      await call('DELETE', `/admin/faults/${id}`);
    },
    call,
    async createSandbox() {
      const { id } = await call<{ id: string }>('POST', '/v1/sandboxes', { shape: 's-1vcpu-1gb' });
      await pollUntil(`sandbox ${id} running`, async () => (await call<{ status: string }>('GET', `/v1/sandboxes/${id}`)).status === 'running');
      return id;
    },
  };
}

export async function makeRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'leasewatch-host-it-'));
}

/** A provider and a fresh data dir; hosts are started on demand and all closed by close(). */
export async function startRig(): Promise<Rig> {
  const root = await makeRoot();
  let provider: Provider;
  try {
    provider = await startProvider(root);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const dataDir = join(root, 'console');
  const logs: string[] = [];
  const hosts: Host[] = [];
  return {
    root,
    provider,
    logs,
    dataDir,
    async startHost() {
      const host = await createHost({
        config: parseCreateosConfig({ apiUrl: provider.url, apiKey: provider.apiKey }),
        providerKind: 'createos-local',
        mode: 'browser',
        version: 'test',
        dataDir,
        secretStore: new FileSecretStore(join(dataDir, 'secrets')),
        discoveryIntervalMs: 500,
        log: (line) => logs.push(line),
      });
      hosts.push(host);
      return host;
    },
    async close() {
      try {
        for (const host of hosts.splice(0)) await host.dispose();
      } finally {
        try {
          await provider.local.close();
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }
    },
  };
}

/** The host's router as a client, through the contract (input and output validated), as the renderer sees it. */
export function contractClient(host: Host, actor = ACTOR) {
  return createRouterClient(host.router, { context: { actor }, interceptors: [mapErrorsInterceptor] });
}

function describeLease(lease: Lease | undefined): string {
  if (!lease) return 'never seen';
  const processes = lease.processes.map((p) => `${p.processId}:${p.state}/tree=${String(p.treeExited)}/reconnects=${p.stream.reconnects}`).join(', ');
  return `verdict ${lease.verdict.status} (${lease.verdict.reasons.map((r) => r.reason).join('; ')}), guard ${lease.guard}, gone ${String(lease.gone)}, processes [${processes}]`;
}

/** Resolves with the lease once `predicate` holds, checked on every lease event; rejects at the deadline. */
export function waitForLease(services: HostServices, leaseId: string, what: string, predicate: (lease: Lease) => boolean, timeoutMs = 15_000): Promise<Lease> {
  return new Promise((resolve, reject) => {
    let last: Lease | undefined;
    let settled = false;
    let unsubscribe: (() => void) | null = null;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unsubscribe?.();
      settle();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} on ${leaseId}; last seen: ${describeLease(last)}`))), timeoutMs);
    const check = (lease: Lease): void => {
      if (lease.id !== leaseId || settled) return;
      last = lease;
      if (predicate(lease)) finish(() => resolve(lease));
    };
    const stop = services.leases.watch((event) => {
      if (event.type === 'snapshot') event.leases.forEach(check);
      else if (event.type === 'upsert') check(event.lease);
    });
    if (settled) stop();
    else unsubscribe = () => void stop();
  });
}

/** Every state of one lease the host published, in order, from now on. */
export function recordLease(services: HostServices, leaseId: string): { readonly history: Lease[]; stop(): void } {
  const history: Lease[] = [];
  const stop = services.leases.watch((event) => {
    if (event.type === 'snapshot') history.push(...event.leases.filter((l) => l.id === leaseId));
    else if (event.type === 'upsert' && event.lease.id === leaseId) history.push(event.lease);
  });
  return { history, stop: () => void stop() };
}

/** Consecutive distinct verdict statuses of a lease history. */
export function verdictSteps(history: readonly Lease[]): string[] {
  const steps: string[] = [];
  for (const lease of history) if (steps.at(-1) !== lease.verdict.status) steps.push(lease.verdict.status);
  return steps;
}

export interface TailRecorder {
  /** Every entry delivered so far (the replay first, then live entries), in order. */
  readonly entries: TailEntry[];
  /** Resolves once `predicate` holds on the entries, checked on every delivery; rejects at the deadline. */
  until(what: string, predicate: (entries: readonly TailEntry[]) => boolean, timeoutMs?: number): Promise<TailEntry[]>;
  stop(): void;
}

/**
 * Waits on a list that grows as things arrive: `until` resolves once `predicate` holds on the
 * items (checked on every `changed()` call), and rejects at the deadline, or as soon as
 * `failure()` names a reason (say, the source died).
 */
export function growingList<T>(items: readonly T[], describe: () => string, failure: () => string | null = () => null) {
  const checks = new Set<() => void>();
  return {
    changed(): void {
      for (const check of [...checks]) check();
    },
    until(what: string, predicate: (items: readonly T[]) => boolean, timeoutMs: number): Promise<T[]> {
      return new Promise((resolve, reject) => {
        const done = (settle: () => void): void => {
          checks.delete(check);
          clearTimeout(timer);
          settle();
        };
        const check = (): void => {
          const failed = failure();
          if (predicate(items)) done(() => resolve([...items]));
          else if (failed !== null) done(() => reject(new Error(`${failed} before ${what}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; ${describe()}`))), timeoutMs);
        checks.add(check);
        check();
      });
    },
  };
}

/** Subscribes to one process's tail through the host, like the renderer does. */
export function recordTail(services: HostServices, leaseId: string, processId: string): TailRecorder {
  const entries: TailEntry[] = [];
  const waits = growingList(entries, () => `tail holds ${JSON.stringify(entries).slice(-2000)}`);
  const stop = services.processes.tail(leaseId, processId, (event) => {
    entries.push(...event.entries);
    waits.changed();
  });
  return {
    entries,
    until: (what, predicate, timeoutMs = 15_000) => waits.until(what, predicate, timeoutMs),
    stop: () => stop(),
  };
}

/** What the host holds of one process's tail right now (the replay). */
export function tailSnapshot(services: HostServices, leaseId: string, processId: string): TailEntry[] {
  const tail = recordTail(services, leaseId, processId);
  tail.stop();
  return tail.entries;
}

/** The text of one stream of a tail, in order. */
export function textOf(entries: readonly TailEntry[], stream: 'stdout' | 'stderr' = 'stdout'): string {
  return entries.map((e) => (e.kind === 'text' && e.stream === stream ? e.text : '')).join('');
}

export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}

export const hasExit = (entries: readonly TailEntry[]): boolean => entries.some((e) => e.kind === 'exit');

/** Numbers of `prefix<N>` lines, in order of arrival. */
export function numbered(lines: readonly string[], prefix: string): number[] {
  return lines.filter((line) => line.startsWith(prefix)).map((line) => Number(line.slice(prefix.length)));
}

/** True when `numbers` is exactly from, from+1, …, to. */
export function isRun(numbers: readonly number[], from: number, to: number): boolean {
  return numbers.length === to - from + 1 && numbers.every((n, i) => n === from + i);
}

let gc: (() => void) | null = null;

/**
 * A full garbage collection now, as a long-running console has them at any moment: what the host
 * waits for (a deadline, a stream) must not depend on an object that only a weak reference holds.
 */
export function collectGarbage(): void {
  if (gc === null) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls a condition that raises no event (the OS process table, the provider's view) until it
 * returns something other than undefined/false; throws at the deadline.
 */
export async function pollUntil<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(25);
  }
}

/** State and session id of a process, from /proc/<pid>/stat; null when it does not exist. */
export async function procStat(pid: number): Promise<{ state: string; sid: number } | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '?', sid: Number(fields[3]) };
  } catch {
    return null;
  }
}

/** /proc/<pid>/stat says the process exists and is not a zombie. */
export async function procAlive(pid: number): Promise<boolean> {
  const stat = await procStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

/** Every file under `dir`, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

/** A bash script that traps TERM, leaves a setsid grandchild that ignores TERM, and loops. */
export const stubbornScript = (before = ''): string => [
  before,
  "trap 'echo got-term' TERM",
  'setsid bash -c \'trap "" TERM; echo grandchild $$; while true; do sleep 0.05; done\' &',
  'echo leader $$',
  'while true; do sleep 0.05; done',
].filter((line) => line.length > 0).join('\n');

/** A fresh provider, data dir and host for every test of the file; all closed (and mocks restored) after it. */
export function eachTestWithHost(set: (rig: Rig, host: Host) => void): void {
  let current: Rig | null = null;
  beforeEach(async () => {
    current = await startRig();
    set(current, await current.startHost());
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await current?.close();
    current = null;
  });
}
