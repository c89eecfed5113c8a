// The client against the real provider (createos-local): real processes, real pacing, real drills.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSandboxProcesses, startCreateosLocal, type CreateosLocal } from '../../../createos-local/server';
import { CreateosApi } from './api';
import { parseCreateosConfig, type CreateosConfig } from './config';
import { CreateosCleanupError, CreateosError } from './errors';
import { CommandExecutor, type CleanupOutcome } from './execute';
import { CreateosHttpClient } from './http-client';
import { RequestPacer } from './pacer';
import { attachProcessOutput, type StreamEvent } from './process-stream';
import { errorText } from './test-support';

const KEY = 'integration-key-0001';

let local: CreateosLocal;
let dataDir: string;
let config: CreateosConfig;
let pacer: RequestPacer;
let http: CreateosHttpClient;
let api: CreateosApi;
let executor: CommandExecutor;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'leasewatch-createos-it-'));
  local = await startCreateosLocal({ apiKey: KEY, dataDir, port: 0 });
  config = parseCreateosConfig({ apiUrl: `${local.url}/v1`, timeoutMs: 15_000 }, KEY);
  // The real 300 ms spacing: every request below goes through it.
  pacer = new RequestPacer();
  http = new CreateosHttpClient({ config, pacer });
  api = new CreateosApi(http);
  executor = new CommandExecutor({ api, timeoutMs: config.timeoutMs });
});

afterAll(async () => {
  pacer.dispose();
  await http.dispose();
  await local.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function runningSandbox(): Promise<string> {
  const { id } = await api.createSandbox({ shape: 's-1vcpu-1gb' });
  for (;;) {
    const view = await api.getSandbox(id);
    if (view.status === 'running') return id;
    if (!['creating', 'resuming'].includes(view.status)) throw new Error(`sandbox is ${view.status}`);
  }
}

async function arm(fault: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${local.url}/admin/faults`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  expect(res.status).toBe(200);
}

describe('execute against createos-local', () => {
  it("runs printf 'a\\nb\\nc\\n' and returns its output and exit status", async () => {
    const sandboxId = await runningSandbox();
    const events: StreamEvent[] = [];
    const ids: string[] = [];
    const result = await executor.execute(
      { sandboxId, command: 'printf', args: ['a\\nb\\nc\\n'] },
      { onEvent: (e) => events.push(e), onProcessId: (id) => ids.push(id) },
    );
    expect(result).toEqual({
      exitCode: 0,
      signal: null,
      timedOut: false,
      stdout: 'a\nb\nc\n',
      stderr: '',
      metadata: { processId: ids[0], outputTruncated: false },
    });
    expect(events.at(-1)).toEqual({ kind: 'exit', exitCode: 0, signal: null, source: 'stream' });
  });

  it('stages stdin, runs in cwd with env, and removes the stdin file afterwards', async () => {
    const sandboxId = await runningSandbox();
    const result = await executor.execute({
      sandboxId,
      command: 'bash',
      args: ['-c', 'echo "$GREETING $(cat) in $(pwd)"; echo oops >&2; exit 3'],
      cwd: '/tmp',
      env: { GREETING: "it's" },
      stdin: 'from stdin',
    });
    expect(result).toMatchObject({ exitCode: 3, stdout: "it's from stdin in /tmp\n", stderr: 'oops\n', timedOut: false });
    const leftovers = await api.exec(sandboxId, { cmd: 'bash', args: ['-c', 'ls /tmp | grep -c paperclip-stdin || true'] });
    expect(leftovers.result.stdout.trim()).toBe('0');
  });

  it('times out a TERM-trapping command: partial output, then DELETE grace_ms proves the tree gone', async () => {
    const sandboxId = await runningSandbox();
    const controller = new AbortController();
    const outcomes: CleanupOutcome[] = [];
    const result = await executor.execute(
      { sandboxId, command: 'bash', args: ['-c', "trap 'echo got-term' TERM; echo started; while :; do sleep 0.05; done"], signal: controller.signal },
      {
        onEvent: (e) => {
          if (e.kind === 'data' && e.text.includes('started')) controller.abort(new DOMException('command timeout', 'TimeoutError'));
        },
        onCleanup: (o) => outcomes.push(o),
      },
    );
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.stdout).toContain('started');
    expect(outcomes).toMatchObject([{ result: 'tree_exited' }]);
    const processId = result.metadata.processId;
    expect(processId).not.toBeNull();
    const view = await api.getProcess(sandboxId, processId ?? '');
    expect(view.tree_exited).toBe(true);
    expect(await findSandboxProcesses(sandboxId)).toEqual([]);
  });

  it('a real timeoutMs deadline ends the command and cleans up', async () => {
    const sandboxId = await runningSandbox();
    const result = await executor.execute({ sandboxId, command: 'sleep', args: ['60'], timeoutMs: 2_000 });
    expect(result.timedOut).toBe(true);
    expect(await findSandboxProcesses(sandboxId)).toEqual([]);
  });

  it('stubborn-tree drill: tree_exited false becomes a CleanupError and the tree really survives', async () => {
    const sandboxId = await runningSandbox();
    await arm({ kind: 'stubborn-tree', sandbox_id: sandboxId });
    const controller = new AbortController();
    const error = await executor
      .execute(
        { sandboxId, command: 'bash', args: ['-c', "trap '' TERM; echo up; while :; do sleep 0.05; done"], signal: controller.signal },
        { onEvent: (e) => e.kind === 'data' && controller.abort(new DOMException('t', 'TimeoutError')) },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CreateosCleanupError);
    expect((error as Error).message).toBe('CreateOS command cleanup failed; process termination is unconfirmed.');
    expect((error as CreateosCleanupError).detail).toBe('Process tree has not exited.');
    expect((await findSandboxProcesses(sandboxId)).length).toBeGreaterThan(0);
    expect(await api.deleteSandbox(sandboxId)).toBe(true);
    expect(await findSandboxProcesses(sandboxId)).toEqual([]);
  });

  it('lose-create-reply drill: creation could not be confirmed', async () => {
    const sandboxId = await runningSandbox();
    await arm({ kind: 'lose-create-reply', sandbox_id: sandboxId, times: 1 });
    const error = await executor.execute({ sandboxId, command: 'sleep', args: ['30'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CreateosCleanupError);
    expect((error as Error).message).toBe('CreateOS process creation could not be confirmed; destroy the lease before reusing it.');
    // The process really started: only destroying the lease proves it gone.
    expect((await api.listProcesses(sandboxId)).length).toBe(1);
    await api.deleteSandbox(sandboxId);
  });

  it('drop-stream drill: one reconnect, no output lost or duplicated', async () => {
    const sandboxId = await runningSandbox();
    await arm({ kind: 'drop-stream', sandbox_id: sandboxId, after_frames: 2, times: 1 });
    const events: StreamEvent[] = [];
    const result = await executor.execute(
      { sandboxId, command: 'bash', args: ['-c', 'for i in 1 2 3 4 5 6; do echo line-$i; sleep 0.02; done'] },
      { onEvent: (e) => events.push(e) },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('line-1\nline-2\nline-3\nline-4\nline-5\nline-6\n');
    expect(events.filter((e) => e.kind === 'reconnect')).toHaveLength(1);
    const seqs = events.flatMap((e) => (e.kind === 'data' && e.bytes > 0 ? [e.seq] : []));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it('http-error drill: the secret-bearing body never surfaces', async () => {
    const sandboxId = await runningSandbox();
    await arm({ kind: 'http-error', path_prefix: `/v1/sandboxes/${sandboxId}/processes`, status: 503, method: 'POST', times: 1 });
    const error = await executor.execute({ sandboxId, command: 'true' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CreateosCleanupError); // a 5xx on create is ambiguous
    expect(errorText(error)).not.toMatch(/sk-leak|api_key|upstream failure/);
    await arm({ kind: 'http-error', path_prefix: `/v1/sandboxes/${sandboxId}`, status: 500, method: 'GET', times: 1 });
    const plain = await api.getSandbox(sandboxId).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(CreateosError);
    expect((plain as Error).message).toBe('CreateOS request failed (HTTP 500) during sandbox lifecycle.');
    expect(errorText(plain)).not.toMatch(/sk-leak|api_key|upstream failure/);
    await api.deleteSandbox(sandboxId);
  });

  it('evict drill: attach to a finished process reports the gap explicitly and reads what is retained', async () => {
    const sandboxId = await runningSandbox();
    const created = await api.createProcess(sandboxId, { cmd: '/bin/bash', args: ['-c', 'for i in $(seq 1 20); do echo line-$i; sleep 0.01; done'] });
    await api.waitProcess(sandboxId, created.process_id, { scope: 'tree', timeoutMs: 5_000 });
    await arm({ kind: 'evict', sandbox_id: sandboxId, journal_bytes: 64 });
    const events: StreamEvent[] = [];
    const exit = await attachProcessOutput(api, { sandboxId, processId: created.process_id, onEvent: (e) => events.push(e) }, AbortSignal.timeout(10_000));
    expect(exit.exitCode).toBe(0);
    const [gap, firstData] = events;
    expect(gap).toMatchObject({ kind: 'gap', fromSeq: 1 });
    // Nothing silent: the first frame read is exactly the one after the gap.
    expect(firstData?.kind === 'data' && gap?.kind === 'gap' && firstData.seq === gap.toSeq + 1).toBe(true);
    const text = events.map((e) => (e.kind === 'data' ? e.text : '')).join('');
    expect(text.endsWith('line-20\n')).toBe(true);
    expect(text).not.toContain('line-1\n');
    await api.deleteSandbox(sandboxId);
  });

  it('rate-limit drill: a 429 fails a POST with its label and holds the origin pacer for Retry-After', async () => {
    const holds: number[] = [];
    const recording = new (class extends RequestPacer {
      override holdFor(ms: number): void {
        holds.push(ms);
      }
    })({ intervalMs: 0 });
    const limited = new CreateosHttpClient({ config, pacer: recording });
    try {
      await arm({ kind: 'rate-limit', per_minute: 1 });
      const error = await new CreateosApi(limited).exec('sb_whatever', { cmd: 'true', args: [] }).catch((e: unknown) => e);
      expect((error as Error).message).toBe('CreateOS request failed (HTTP 429) during workspace command.');
      expect(holds.length).toBe(1);
      expect(holds[0]).toBeGreaterThanOrEqual(1_000);
    } finally {
      const cleared = await fetch(`${local.url}/admin/faults`, { method: 'DELETE', headers: { 'x-api-key': KEY } });
      expect(cleared.status).toBe(200);
      recording.dispose();
      await limited.dispose();
    }
  });
});
