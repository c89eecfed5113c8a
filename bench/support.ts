// Shared pieces of the benchmarks: providers, API calls, and the numbered-line producer.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startCreateosLocal, type CreateosLocal } from '../createos-local/server';

export const repoRoot = join(import.meta.dirname, '..');

/** The first capture group of the first stdout line of `child` that matches `pattern`. */
export async function lineFrom(child: ChildProcess, pattern: RegExp): Promise<string> {
  if (!child.stdout) throw new Error('the child has no stdout');
  for await (const line of createInterface({ input: child.stdout })) {
    const match = pattern.exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error(`no line matched ${String(pattern)}`);
}

/** createos-local in its own process (so the measured process is alone); resolves with its URL. */
export async function spawnProvider(apiKey: string, dataDir: string, extraArgs: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'createos-local', 'cli.ts'), '--port', '0', '--api-key', apiKey, '--data-dir', dataDir, ...extraArgs], { stdio: ['ignore', 'pipe', 'ignore'] });
  return { url: await lineFrom(child, /listening on (http:\/\/\S+)/), child };
}

/** createos-local in this process, with the rate limit out of the way, and a JSON caller for its API. */
export async function startBenchProvider(apiKey: string, dataDir: string): Promise<{ server: CreateosLocal; call: <T>(method: string, path: string, body?: unknown) => Promise<T> }> {
  const server = await startCreateosLocal({ apiKey, dataDir, port: 0, rateLimitPerMinute: 1_000_000 });
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };
  return { server, call };
}

/**
 * A shell command that waits for /tmp/go, then writes numbered lines of `lineBytes` (with the
 * write time in ms when `stamped`), `linesPerTick` lines ten times a second for `seconds`.
 */
export function numberedLineProducer(options: { seconds: number; linesPerTick: number; lineBytes: number; stamped: boolean }): string {
  const { seconds, linesPerTick, lineBytes, stamped } = options;
  const pad = lineBytes - (stamped ? 30 : 10);
  const print = stamped ? 'printf("%08d %.1f %s\\n", $n, time()*1000, $pad)' : 'printf("%08d %s\\n", $n, $pad)';
  return `exec perl -MTime::HiRes=time -e 'select(undef, undef, undef, 0.05) until -e "/tmp/go"; $|=1; my $pad = "x" x ${pad}; my $n = 0; for my $t (1..${10 * seconds}) { for (1..${linesPerTick}) { $n++; ${print}; } select(undef, undef, undef, 0.1); }'`;
}

/** The streaming load both stream benches take from argv: [seconds=20] [processes=100] [kbPerSecondEach=100]. */
export function streamLoadFromArgv(argv: readonly string[] = process.argv) {
  const seconds = Number(argv[2] ?? 20);
  const processCount = Number(argv[3] ?? 100);
  const kbEach = Number(argv[4] ?? 100);
  const lineBytes = 1024;
  const linesPerTick = Math.max(1, Math.round((kbEach * 1024) / lineBytes / 10));
  return { seconds, processCount, kbEach, perSandbox: 10, lineBytes, linesPerTick };
}
