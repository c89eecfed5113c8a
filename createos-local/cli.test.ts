import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findSandboxProcesses } from './process-table';
import { until } from './test-helpers';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

function runCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'createos-local/cli.ts', ...args], { cwd: repo, stdio: 'pipe' });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('cli', () => {
  it('prints the listening line, serves, and SIGTERM closes it and kills its sandboxes', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'createos-local-cli-'));
    dirs.push(dataDir);
    const cli = runCli(['--port', '0', '--api-key', 'cli-key', '--data-dir', dataDir, '--journal-bytes', '65536', '--fault', 'rate-limit:per_minute=1000']);
    const line = await until('listening line', () => /createos-local listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(cli.out()) ?? undefined, 15_000);
    expect(cli.out()).toMatch(/^createos-local listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    await until('the membership line', () => /^createos-local membership: (cgroup|environment marker)/m.test(cli.err()));
    const url = line[1] ?? '';
    const headers = { 'x-api-key': 'cli-key', 'content-type': 'application/json' };
    const created = (await (await fetch(`${url}/v1/sandboxes`, { method: 'POST', headers, body: JSON.stringify({ shape: 's-1vcpu-1gb' }) })).json()) as { data: { id: string } };
    const sb = created.data.id;
    await until('running', async () => ((await (await fetch(`${url}/v1/sandboxes/${sb}`, { headers })).json()) as { data: { status: string } }).data.status === 'running');
    const proc = await fetch(`${url}/v1/sandboxes/${sb}/processes`, { method: 'POST', headers, body: JSON.stringify({ cmd: '/bin/bash', args: ['-c', 'setsid sleep 600 & sleep 600'] }) });
    expect(proc.status).toBe(200);
    await until('both sleeps', async () => (await findSandboxProcesses(sb)).filter((p) => p.comm === 'sleep').length === 2);
    const faults = (await (await fetch(`${url}/admin/faults`, { headers })).json()) as { data: { faults: Array<{ kind: string }> } };
    expect(faults.data.faults.map((f) => f.kind)).toEqual(['rate-limit']);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(await findSandboxProcesses(sb)).toEqual([]);
  });

  it('rejects bad flags with exit code 2', async () => {
    const bad = runCli(['--port', 'x', '--api-key', 'k']);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toMatch(/--port/);
    const badFault = runCli(['--port', '0', '--api-key', 'k', '--fault', 'meteor:x=1']);
    expect(await badFault.exited).toBe(2);
    expect(badFault.err()).toMatch(/fault/);
  });
});
