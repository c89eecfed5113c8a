// Shared helpers for the createos-local conformance tests: a real server on a free port with a
// temporary data dir, a tiny JSON client, NDJSON reading and condition polling with deadlines.
import { afterEach, beforeEach } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCreateosLocal, type CreateosLocal, type CreateosLocalOptions } from './server';

export const KEY = 'test-key-123';

export interface Envelope<T> {
  status: number;
  body: { status?: string; data: T; message?: string; code?: string; [k: string]: unknown };
  headers: Headers;
  text: string;
}

export interface ProcView {
  process_id: string;
  pid: number;
  state: string;
  leader_exited: boolean;
  tree_exited: boolean;
  exit_code: number | null;
  signal: string | null;
  output: { oldest_seq: number; newest_seq: number; bytes: number };
}

export interface Frame {
  type: string;
  seq?: number;
  stream?: string;
  data_base64?: string;
  exit_code?: number | null;
  signal?: string | null;
  error?: string;
  oldest_available_seq?: number;
}

export interface Harness {
  server: CreateosLocal;
  dataDir: string;
  logs: string[];
  call<T = Record<string, unknown>>(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<Envelope<T>>;
  raw(method: string, p: string, init?: { body?: string | Buffer; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

const openHarnesses = new Set<Harness>();

export async function startHarness(extra: Partial<CreateosLocalOptions> = {}): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'createos-local-test-'));
  const logs: string[] = [];
  const server = await startCreateosLocal({ apiKey: KEY, dataDir, port: 0, log: (l) => logs.push(l), ...extra });
  const raw = (method: string, p: string, init: { body?: string | Buffer; headers?: Record<string, string> } = {}) =>
    fetch(`${server.url}${p}`, { method, headers: { 'x-api-key': KEY, ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) });
  async function call<T>(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Envelope<T>> {
    const res = await raw(method, p, {
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: Envelope<T>['body'];
    try {
      parsed = JSON.parse(text) as Envelope<T>['body'];
    } catch {
      parsed = { data: undefined as T };
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  }
  let closing: Promise<void> | null = null;
  const harness: Harness = {
    server,
    dataDir,
    logs,
    call,
    raw,
    close() {
      openHarnesses.delete(harness);
      closing ??= server.close().then(() => rm(dataDir, { recursive: true, force: true }));
      return closing;
    },
  };
  openHarnesses.add(harness);
  return harness;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fresh server for every test of the file (and, with `withSandbox`, a sandbox created in it),
 * handed to `use`. After each test every harness still open is closed, including any the test
 * started itself (say, with other options).
 */
export function eachTestWithHarness(use: (harness: Harness, sandboxId: string) => void, opts: { withSandbox?: boolean } = {}): void {
  beforeEach(async () => {
    const harness = await startHarness();
    use(harness, opts.withSandbox === true ? await createSandbox(harness) : '');
  });
  afterEach(async () => {
    await Promise.all([...openHarnesses].map((h) => h.close()));
  });
}

/** Arms a fault over the admin API; returns its id. */
export async function armFault(h: Harness, spec: Record<string, unknown>): Promise<string> {
  const r = await h.call<{ id: string }>('POST', '/admin/faults', spec);
  if (r.status !== 200) throw new Error(`arming ${JSON.stringify(spec)} answered ${r.status}`);
  return r.body.data.id;
}

/** Polls `fn` until it returns a value other than undefined/false, or throws at the deadline. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

export async function createSandbox(h: Harness, body: Record<string, unknown> = {}): Promise<string> {
  const r = await h.call<{ id: string; status: string }>('POST', '/v1/sandboxes', { shape: 's-1vcpu-1gb', ...body });
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${r.text}`);
  const id = r.body.data.id;
  await until('sandbox running', async () => (await h.call<{ status: string }>('GET', `/v1/sandboxes/${id}`)).body.data.status === 'running');
  return id;
}

export async function startProcess(h: Harness, sb: string, script: string): Promise<ProcView> {
  const r = await h.call<ProcView>('POST', `/v1/sandboxes/${sb}/processes`, { cmd: '/bin/bash', args: ['-c', script] });
  if (r.status !== 200) throw new Error(`process create failed: ${r.status} ${r.text}`);
  return r.body.data;
}

export async function getProcess(h: Harness, sb: string, pid: string): Promise<ProcView> {
  return (await h.call<ProcView>('GET', `/v1/sandboxes/${sb}/processes/${pid}`)).body.data;
}

/** Reads an NDJSON body to its end; `error` is set when the body broke off mid-stream. */
export async function readFrames(res: Response): Promise<{ frames: Frame[]; error: unknown }> {
  let text = '';
  let error: unknown = null;
  const reader = res.body?.getReader();
  const dec = new TextDecoder();
  try {
    for (;;) {
      if (reader === undefined) break;
      const { value, done } = (await reader.read()) as { value: Uint8Array | undefined; done: boolean };
      if (done || value === undefined) break;
      text += dec.decode(value, { stream: true });
    }
  } catch (err) {
    error = err;
  }
  const frames = text
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Frame);
  return { frames, error };
}

/** Reads frames incrementally until `stop` says enough; then cancels the body. */
export async function readUntil(res: Response, stop: (frames: Frame[]) => boolean): Promise<Frame[]> {
  const reader = res.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const frames: Frame[] = [];
  let buf = '';
  const dec = new TextDecoder();
  while (!stop(frames)) {
    const { value, done } = (await reader.read()) as { value: Uint8Array | undefined; done: boolean };
    if (done || value === undefined) break;
    buf += dec.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim().length > 0) frames.push(JSON.parse(line) as Frame);
    }
  }
  await reader.cancel().catch(() => undefined);
  return frames;
}

export function decodeData(frames: Frame[], stream?: string): string {
  return frames
    .filter((f) => f.type === 'data' && (stream === undefined || f.stream === stream))
    .map((f) => Buffer.from(f.data_base64 ?? '', 'base64').toString('utf8'))
    .join('');
}

export async function procExists(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** A bash script that ignores SIGTERM (trap) and leaves a setsid grandchild that ignores it too. */
/**
 * The long-lived shells of a process tree: session leaders only. A shell's loop forks a short-lived
 * copy of itself before each `sleep` execs; such a copy is never a session leader.
 */
export function sessionLeaderShells<T extends { pid: number; sid: number; comm: string }>(procs: readonly T[]): T[] {
  return procs.filter((p) => p.comm === 'bash' && p.sid === p.pid);
}

export const STUBBORN_SCRIPT = [
  "trap 'echo got-term' TERM",
  'setsid bash -c \'trap "" TERM; echo grandchild $$; while true; do sleep 0.05; done\' &',
  'echo leader $$',
  'while true; do sleep 0.05; done',
].join('\n');

/** Host PIDs of live processes whose argv is exactly `argv`, read from /proc without the code under test. */
export async function hostPidsByArgv(argv: string[]): Promise<number[]> {
  const want = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if ((await readFile(`/proc/${name}/cmdline`, 'utf8')) === want && (await procExists(Number(name)))) found.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** A sleep duration no other process uses, so the sleep can be found by its argv. */
export function uniqueSleep(): string {
  return `${300 + Math.floor(Math.random() * 1000)}.${process.pid}${Math.floor(Math.random() * 1000)}`;
}
