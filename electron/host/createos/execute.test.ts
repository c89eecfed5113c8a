import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateosCleanupError, CreateosError } from './errors';
import { CreateosClient } from './client';
import { parseCreateosConfig } from './config';
import { buildScript, CommandExecutor, shellQuote, type CleanupOutcome, type ExecuteRequest, type StreamTuning } from './execute';
import type { StreamEvent } from './process-stream';
import {
  captureError,
  dataFrame,
  errorText,
  exitFrame,
  failWithSecret,
  frameLine,
  managedProcess,
  SECRET_BODY,
  startNdjson,
  startScriptedServer,
  success,
  TEST_API_KEY,
  testClient,
  type RecordedRequest,
  type ScriptedServer,
  type TestClient,
} from './test-support';

type Step = (req: RecordedRequest, res: ServerResponse) => void;

interface Script {
  create: Step;
  connect: Step[];
  remove: Step;
  close: Step;
  put: Step;
}

let server: ScriptedServer;
let client: TestClient;
let script: Script;

beforeEach(async () => {
  script = {
    put: (_req, res) => success(res, {}),
    create: (_req, res) => success(res, managedProcess('p_1'), 201),
    close: (_req, res) => success(res, {}),
    connect: [],
    remove: (_req, res) => success(res, managedProcess('p_1', { state: 'exited', tree_exited: true })),
  };
  server = await startScriptedServer((req, res) => {
    const p = req.path;
    if (req.method === 'PUT' && p.endsWith('/files')) script.put(req, res);
    else if (req.method === 'POST' && p.endsWith('/processes')) script.create(req, res);
    else if (p.endsWith('/stdin/close')) script.close(req, res);
    else if (p.endsWith('/connect')) (script.connect.shift() ?? ((_r, s) => failWithSecret(s, 599)))(req, res);
    else if (req.method === 'DELETE') script.remove(req, res);
    else if (p.endsWith('/exec')) success(res, { result: { exit_code: 0, stdout: '', stderr: '' } });
    else failWithSecret(res, 404);
  });
  client = testClient(server.url);
});

afterEach(async () => {
  await client.dispose();
  await server.close();
});

function executor(extra: { tailChars?: number; stream?: StreamTuning } = {}): CommandExecutor {
  return new CommandExecutor({
    api: client.api,
    timeoutMs: 5_000,
    newId: () => 'uuid-1',
    stream: { delay: () => Promise.resolve(), waitTimeoutMs: 0 },
    ...extra,
  });
}

function frames(...list: unknown[]): Step {
  return (_req, res) => {
    startNdjson(res);
    res.end(list.map((f) => frameLine(f)).join(''));
  };
}

const calls = (): string[] => server.requests.map((r) => `${r.method} ${r.path.replace('/v1/sandboxes/sb_1', '')}${r.query.size > 0 ? `?${r.query.toString()}` : ''}`);
const req = (extra: Partial<ExecuteRequest> = {}): ExecuteRequest => ({ sandboxId: 'sb_1', command: 'printf', args: ['a\\n'], ...extra });

async function expectError(promise: Promise<unknown>, message: string): Promise<CreateosError> {
  const error = await captureError(promise);
  expect(error).toBeInstanceOf(CreateosError);
  expect((error as Error).message).toBe(message);
  expect(errorText(error)).not.toContain(SECRET_BODY);
  expect(errorText(error)).not.toContain(TEST_API_KEY);
  return error as CreateosError;
}

describe('script building', () => {
  it('quotes everything and never sends env separately', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(buildScript({ command: 'echo', args: ['a b', "c'd"], cwd: "/w/it's", env: { A: 'x y', B_2: "q'" } }, '/tmp/paperclip-stdin-u')).toBe(
      `cd -- '/w/it'\\''s' || exit\nexec env A='x y' B_2='q'\\''' 'echo' 'a b' 'c'\\''d' < '/tmp/paperclip-stdin-u'`,
    );
    expect(buildScript({ command: 'true' }, undefined)).toBe(`exec env 'true' < '/dev/null'`);
  });
});

describe('CommandExecutor.execute', () => {
  it('stages stdin, creates bash -lc, closes stdin, streams, and removes the stdin file', async () => {
    script.connect.push(frames(dataFrame(1, 'out'), dataFrame(2, 'err', 'stderr'), exitFrame(0)));
    const events: StreamEvent[] = [];
    const ids: string[] = [];
    const result = await executor().execute(req({ stdin: 'input', cwd: '/w', env: { K: 'v' } }), { onEvent: (e) => events.push(e), onProcessId: (id) => ids.push(id) });
    expect(result).toEqual({ exitCode: 0, signal: null, timedOut: false, stdout: 'out', stderr: 'err', metadata: { processId: 'p_1', outputTruncated: false } });
    expect(ids).toEqual(['p_1']);
    expect(events.map((e) => e.kind)).toEqual(['data', 'data', 'exit']);
    expect(calls()).toEqual([
      'PUT /files?path=%2Ftmp%2Fpaperclip-stdin-uuid-1',
      'POST /processes',
      'POST /processes/p_1/stdin/close',
      'GET /processes/p_1/connect?after=0',
      'POST /exec',
    ]);
    expect(server.requests[0]?.body.toString()).toBe('input');
    const created = JSON.parse(server.requests[1]?.body.toString() ?? '') as Record<string, unknown>;
    expect(created).toEqual({
      cmd: '/bin/bash',
      args: ['-lc', `cd -- '/w' || exit\nexec env K='v' 'printf' 'a\\n' < '/tmp/paperclip-stdin-uuid-1'`],
      cwd: '/w',
    });
    expect(JSON.parse(server.requests[4]?.body.toString() ?? '')).toEqual({ cmd: '/bin/rm', args: ['-f', '--', '/tmp/paperclip-stdin-uuid-1'] });
  });

  it('without stdin: no staging, no rm; stdin/close 409 is fine', async () => {
    script.close = (_req, res) => failWithSecret(res, 409);
    script.connect.push(frames(exitFrame(null, 'SIGKILL')));
    const result = await executor().execute(req());
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
    expect(calls()).toEqual(['POST /processes', 'POST /processes/p_1/stdin/close', 'GET /processes/p_1/connect?after=0']);
  });

  it('validates before any request', async () => {
    const ex = executor();
    await expectError(ex.execute(req({ env: { '1BAD': 'x' } })), 'Invalid sandbox environment variable.');
    await expectError(ex.execute(req({ env: { 'A-B': 'x' } })), 'Invalid sandbox environment variable.');
    await expectError(ex.execute(req({ args: ['a\0b'] })), 'Sandbox command values cannot contain NUL.');
    await expectError(ex.execute(req({ env: { A: '\0' } })), 'Sandbox command values cannot contain NUL.');
    await expectError(ex.execute(req({ cwd: '/\0' })), 'Sandbox command values cannot contain NUL.');
    await expectError(ex.execute(req({ command: '  ' })), 'A sandbox command is required.');
    expect(server.requests).toHaveLength(0);
  });

  it.each<[string, Partial<ExecuteRequest>]>([
    ['without stdin', {}],
    ['with stdin', { stdin: 'x' }],
  ])('an invalid sandbox id (%s) fails before any request, never as an unconfirmed creation', async (_name, extra) => {
    const error = await expectError(executor().execute(req({ sandboxId: 'bad id!', ...extra })), 'CreateOS returned an invalid resource ID.');
    expect(error).not.toBeInstanceOf(CreateosCleanupError);
    expect(error.code).toBe('invalid_id');
    expect(server.requests).toHaveLength(0);
  });

  it('a creation answered <500 proves nothing was created: the plain error, no cleanup', async () => {
    script.create = (_req, res) => failWithSecret(res, 400);
    await expectError(executor().execute(req({ stdin: 'x' })), 'CreateOS request failed (HTTP 400) during process creation.');
    expect(calls()).toEqual(['PUT /files?path=%2Ftmp%2Fpaperclip-stdin-uuid-1', 'POST /processes', 'POST /exec']);
  });

  it.each<[string, Step]>([
    ['a 5xx', (_req, res) => failWithSecret(res, 502)],
    ['a reset', (_req, res) => res.socket?.destroy()],
    ['a bad envelope', (_req, res) => success(res, 'nope')],
    ['invalid JSON', (_req, res) => { res.writeHead(201); res.end('{'); }],
    ['an invalid process_id', (_req, res) => success(res, managedProcess('bad id!'))],
  ])('creation with %s could not be confirmed: CleanupError, never retried', async (_name, step) => {
    script.create = step;
    const error = await expectError(executor().execute(req()), 'CreateOS process creation could not be confirmed; destroy the lease before reusing it.');
    expect(error).toBeInstanceOf(CreateosCleanupError);
    expect(calls().filter((c) => c === 'POST /processes')).toHaveLength(1);
    expect(calls().some((c) => c.startsWith('DELETE'))).toBe(false);
  });

  it.each<[string, Record<string, unknown>]>([
    ['no state', { process_id: 'p_1' }],
    ['a numeric state', managedProcess('p_1', { state: 5 })],
    ['a null created_at', managedProcess('p_1', { created_at: null })],
    ['output without oldest_seq', managedProcess('p_1', { output: { newest_seq: 0 } })],
    ['odd pid, kind and output', managedProcess('p_1', { pid: 'x', kind: 7, output: 'none', finished_at: 3 })],
  ])('a 2xx creation with a valid process_id and %s keeps the id, runs, and DELETEs on timeout', async (_name, reply) => {
    script.create = (_req, res) => success(res, reply, 201);
    const controller = new AbortController();
    script.connect.push((_req, res) => {
      startNdjson(res);
      res.write(frameLine(dataFrame(1, 'partial')));
    });
    const ids: string[] = [];
    const outcomes: CleanupOutcome[] = [];
    const result = await executor().execute(req({ signal: controller.signal }), {
      onProcessId: (id) => ids.push(id),
      onEvent: (e) => {
        if (e.kind === 'data') controller.abort(new DOMException('deadline', 'TimeoutError'));
      },
      onCleanup: (o) => outcomes.push(o),
    });
    expect(result).toMatchObject({ timedOut: true, stdout: 'partial', metadata: { processId: 'p_1' } });
    expect(ids).toEqual(['p_1']);
    expect(calls()).toEqual(['POST /processes', 'POST /processes/p_1/stdin/close', 'GET /processes/p_1/connect?after=0', 'DELETE /processes/p_1?grace_ms=1000']);
    expect(outcomes).toMatchObject([{ processId: 'p_1', result: 'tree_exited' }]);
  });

  it('a cleanup reply with tree_exited true and other fields malformed proves the tree is gone', async () => {
    const controller = new AbortController();
    script.connect.push((_req, res) => {
      startNdjson(res);
      res.write(frameLine(dataFrame(1, 'x')));
    });
    script.remove = (_req, res) => success(res, { process_id: 'p_1', tree_exited: true, created_at: null, output: { bytes: 1 } });
    const outcomes: CleanupOutcome[] = [];
    const result = await executor().execute(req({ signal: controller.signal }), {
      onEvent: () => controller.abort(new DOMException('t', 'TimeoutError')),
      onCleanup: (o) => outcomes.push(o),
    });
    expect(result.timedOut).toBe(true);
    expect(outcomes).toMatchObject([{ processId: 'p_1', result: 'tree_exited' }]);
  });

  it('ambiguity takes precedence over a timeout', async () => {
    const controller = new AbortController();
    script.create = () => controller.abort(new DOMException('late', 'TimeoutError'));
    const error = await expectError(executor().execute(req({ signal: controller.signal })), 'CreateOS process creation could not be confirmed; destroy the lease before reusing it.');
    expect(error).toBeInstanceOf(CreateosCleanupError);
  });

  it('a timeout returns timedOut with partial output, then DELETEs with grace_ms=1000', async () => {
    const controller = new AbortController();
    script.connect.push((_req, res) => {
      startNdjson(res);
      res.write(frameLine(dataFrame(1, 'partial')));
    });
    const outcomes: CleanupOutcome[] = [];
    const result = await executor().execute(req({ signal: controller.signal }), {
      onEvent: (e) => {
        if (e.kind === 'data') controller.abort(new DOMException('deadline', 'TimeoutError'));
      },
      onCleanup: (o) => outcomes.push(o),
    });
    expect(result).toEqual({ exitCode: null, signal: null, timedOut: true, stdout: 'partial', stderr: '', metadata: { processId: 'p_1', outputTruncated: false } });
    expect(calls().at(-1)).toBe('DELETE /processes/p_1?grace_ms=1000');
    expect(outcomes).toMatchObject([{ processId: 'p_1', result: 'tree_exited' }]);
  });

  it('the request timeoutMs is a real deadline', async () => {
    script.connect.push((_req, res) => startNdjson(res));
    const result = await executor().execute(req({ timeoutMs: 200 }));
    expect(result.timedOut).toBe(true);
  });

  it('any other abort is "command was cancelled." and still cleans up', async () => {
    const controller = new AbortController();
    script.connect.push((_req, res) => {
      startNdjson(res);
      res.write(frameLine(dataFrame(1, 'x')));
    });
    const error = await expectError(
      executor().execute(req({ signal: controller.signal }), { onEvent: () => controller.abort() }),
      'CreateOS command was cancelled.',
    );
    expect(error.code).toBe('cancelled');
    expect(calls().at(-1)).toBe('DELETE /processes/p_1?grace_ms=1000');
  });

  it('DELETE 404 means already gone', async () => {
    script.connect.push(frames({ type: 'bogus' }));
    script.remove = (_req, res) => failWithSecret(res, 404);
    const outcomes: CleanupOutcome[] = [];
    await expectError(executor().execute(req(), { onCleanup: (o) => outcomes.push(o) }), 'CreateOS returned an unknown process event.');
    expect(outcomes).toMatchObject([{ result: 'already_gone' }]);
  });

  it.each<[string, Step, string]>([
    ['tree_exited false', (_req, res) => success(res, managedProcess('p_1', { tree_exited: false })), 'Process tree has not exited.'],
    ['tree_exited missing', (_req, res) => success(res, { process_id: 'p_1', state: 'terminating' }), 'Process tree has not exited.'],
    ['tree_exited "true" (a string)', (_req, res) => success(res, managedProcess('p_1', { tree_exited: 'true' })), 'Process tree has not exited.'],
    ['tree_exited 1', (_req, res) => success(res, managedProcess('p_1', { tree_exited: 1, state: 'exited' })), 'Process tree has not exited.'],
    ['tree_exited missing and no state', (_req, res) => success(res, { process_id: 'p_1', created_at: null }), 'Process tree has not exited.'],
    ['a 500', (_req, res) => failWithSecret(res, 500), 'CreateOS request failed (HTTP 500) during process cleanup.'],
    ['a reset', (_req, res) => res.socket?.destroy(), 'CreateOS connection failed.'],
  ])('cleanup with %s: CleanupError overrides the result', async (_name, remove, detail) => {
    const controller = new AbortController();
    script.connect.push((_req, res) => {
      startNdjson(res);
      res.write(frameLine(dataFrame(1, 'x')));
    });
    script.remove = remove;
    const outcomes: CleanupOutcome[] = [];
    const error = await expectError(
      executor().execute(req({ stdin: 's', signal: controller.signal }), {
        onEvent: () => controller.abort(new DOMException('t', 'TimeoutError')),
        onCleanup: (o) => outcomes.push(o),
      }),
      'CreateOS command cleanup failed; process termination is unconfirmed.',
    );
    expect(error).toBeInstanceOf(CreateosCleanupError);
    expect(error.detail).toBe(detail);
    expect(outcomes).toMatchObject([{ result: 'unconfirmed', detail }]);
    expect(calls().at(-1)).toBe('POST /exec'); // the stdin file is still removed
  });

  it('a stream error is rethrown after a confirmed cleanup', async () => {
    script.connect.push(frames(dataFrame(1, 'a'), dataFrame(3, 'c')));
    await expectError(executor().execute(req()), 'CreateOS process output has a sequence gap.');
    expect(calls().at(-1)).toBe('DELETE /processes/p_1?grace_ms=1000');
  });

  it('keeps the last N chars per stream and flags truncation; reconnects are visible live', async () => {
    script.connect.push(frames(dataFrame(1, 'abcdef'), dataFrame(2, 'xy', 'stderr')));
    script.connect.push(frames(dataFrame(3, 'ghij'), exitFrame(0)));
    const events: StreamEvent[] = [];
    const result = await executor({ tailChars: 5 }).execute(req(), { onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ stdout: 'fghij', stderr: 'xy', metadata: { outputTruncated: true } });
    expect(events).toContainEqual({ kind: 'reconnect', count: 1, reason: 'eof' });
  });

  it('a timeout flushes split UTF-8 into the result: a dangling sequence becomes U+FFFD', async () => {
    const euro = Buffer.from('€', 'utf8');
    const controller = new AbortController();
    script.connect.push((_req, res) => {
      startNdjson(res);
      res.write(frameLine(dataFrame(1, Buffer.concat([Buffer.from('ok '), euro.subarray(0, 2)]))) + frameLine(dataFrame(2, euro.subarray(0, 1), 'stderr')));
    });
    const events: StreamEvent[] = [];
    const result = await executor().execute(req({ signal: controller.signal }), {
      onEvent: (e) => {
        events.push(e);
        if (e.kind === 'data' && e.seq === 2) controller.abort(new DOMException('deadline', 'TimeoutError'));
      },
    });
    expect(result).toMatchObject({ timedOut: true, stdout: 'ok \uFFFD', stderr: '\uFFFD' });
    expect(events.filter((e) => e.kind === 'data' && e.bytes === 0)).toEqual([
      { kind: 'data', seq: 2, stream: 'stdout', text: '\uFFFD', bytes: 0 },
      { kind: 'data', seq: 2, stream: 'stderr', text: '\uFFFD', bytes: 0 },
    ]);
  });

  it('eviction is always the catalogue error for execute, even when gapOnEviction is smuggled into the tuning', async () => {
    // @ts-expect-error StreamTuning has no gapOnEviction: execute must not turn eviction into skipped output (§3, §6).
    const smuggled: StreamTuning = { delay: () => Promise.resolve(), waitTimeoutMs: 0, gapOnEviction: true };
    script.connect.push(frames(dataFrame(1, 'a'), { type: 'error', error: 'output_offset_expired', oldest_available_seq: 5 }));
    script.connect.push(frames(dataFrame(5, 'e'), exitFrame(0)));
    const error = await expectError(executor({ stream: smuggled }).execute(req()), 'CreateOS process output was evicted before it could be read.');
    expect(error.code).toBe('evicted');
    expect(calls().filter((c) => c.includes('/connect'))).toEqual(['GET /processes/p_1/connect?after=0']);
  });

  it('the client\'s executor: eviction (410) is the catalogue error', async () => {
    const createos = new CreateosClient({
      config: parseCreateosConfig({ apiUrl: server.url, apiKey: TEST_API_KEY, timeoutMs: 5_000 }),
      pacer: client.pacer,
      stream: { delay: () => Promise.resolve(), waitTimeoutMs: 0 },
    });
    try {
      script.connect.push((_req, res) => failWithSecret(res, 410));
      script.connect.push(frames(dataFrame(5, 'e'), exitFrame(0)));
      const error = await expectError(createos.executor.execute(req()), 'CreateOS process output was evicted before it could be read.');
      expect(error.code).toBe('evicted');
      expect(calls().filter((c) => c.includes('/connect'))).toHaveLength(1);
    } finally {
      await createos.dispose();
    }
  });

  it('a throwing hook changes nothing', async () => {
    script.connect.push(frames(dataFrame(1, 'a'), exitFrame(0)));
    const result = await executor().execute(req(), {
      onEvent: () => {
        throw new Error('hook');
      },
      onProcessId: () => {
        throw new Error('hook');
      },
    });
    expect(result.exitCode).toBe(0);
  });
});
