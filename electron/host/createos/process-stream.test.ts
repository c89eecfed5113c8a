import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreateosApi } from './api';
import { CreateosError } from './errors';
import { attachProcessOutput, planAttach, ProcessOutputStream, type ProcessStreamOptions, type StreamEvent } from './process-stream';
import {
  captureError,
  dataFrame,
  errorText,
  exitFrame,
  failWithSecret,
  frameLine,
  managedProcess,
  resetAfter,
  SECRET_BODY,
  startNdjson,
  startScriptedServer,
  success,
  testClient,
  type RecordedRequest,
  type ScriptedServer,
  type TestClient,
} from './test-support';

type Step = (req: RecordedRequest, res: ServerResponse) => void;

let server: ScriptedServer;
let client: TestClient;
let connects: Step[];
let others: Step;
let delays: number[];

beforeEach(async () => {
  connects = [];
  delays = [];
  others = (_req, res) => failWithSecret(res, 404);
  server = await startScriptedServer((req, res) => {
    if (req.path.endsWith('/connect')) {
      const step = connects.shift();
      if (step === undefined) failWithSecret(res, 599);
      else step(req, res);
    } else others(req, res);
  });
  client = testClient(server.url);
});

afterEach(async () => {
  await client.dispose();
  await server.close();
});

/** A connection that sends these frames (as one body) then ends. */
function frames(...list: unknown[]): Step {
  return (_req, res) => {
    startNdjson(res);
    res.end(list.map((f) => (typeof f === 'string' ? f : frameLine(f))).join(''));
  };
}

function stream(options: Partial<ProcessStreamOptions> = {}): { events: StreamEvent[]; s: ProcessOutputStream } {
  const events: StreamEvent[] = [];
  const s = new ProcessOutputStream(client.api, {
    sandboxId: 'sb_1',
    processId: 'p_1',
    waitTimeoutMs: 0,
    delay: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { events, s };
}

const afters = (): (string | null)[] => server.requests.filter((r) => r.path.endsWith('/connect')).map((r) => r.query.get('after'));
const dataOf = (events: StreamEvent[]): [number, string, string][] =>
  events.flatMap((e) => (e.kind === 'data' ? [[e.seq, e.stream, e.text] as [number, string, string]] : []));

async function failure(s: ProcessOutputStream, message: string): Promise<CreateosError> {
  const error = await captureError(s.run(AbortSignal.timeout(10_000)));
  expect(error).toBeInstanceOf(CreateosError);
  expect((error as Error).message).toBe(message);
  expect(errorText(error)).not.toContain(SECRET_BODY);
  return error as CreateosError;
}

describe('ProcessOutputStream', () => {
  it('reads data in order and returns the exit; heartbeats and blank lines are ignored', async () => {
    connects.push(frames(dataFrame(1, 'hel'), { type: 'heartbeat' }, '\n', dataFrame(2, 'lo\n', 'stderr'), exitFrame(3)));
    const { events, s } = stream();
    expect(await s.run(AbortSignal.timeout(10_000))).toEqual({ kind: 'exit', exitCode: 3, signal: null, source: 'stream' });
    expect(dataOf(events)).toEqual([[1, 'stdout', 'hel'], [2, 'stderr', 'lo\n']]);
    expect(events.at(-1)).toEqual({ kind: 'exit', exitCode: 3, signal: null, source: 'stream' });
    expect(s.cursor).toBe(2);
    expect(afters()).toEqual(['0']);
  });

  it('accepts a final unterminated exit line and a signal-only exit', async () => {
    connects.push(frames(dataFrame(1, 'x'), JSON.stringify(exitFrame(null, 'SIGTERM'))));
    const { s } = stream();
    expect(await s.run(AbortSignal.timeout(10_000))).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
  });

  it('EOF without exit reconnects with after=cursor and drops replayed duplicates', async () => {
    connects.push(frames(dataFrame(1, 'a'), dataFrame(2, 'b')));
    connects.push(frames(dataFrame(1, 'a'), dataFrame(2, 'b'), dataFrame(3, 'c'), exitFrame(0)));
    const { events, s } = stream();
    await s.run(AbortSignal.timeout(10_000));
    expect(dataOf(events)).toEqual([[1, 'stdout', 'a'], [2, 'stdout', 'b'], [3, 'stdout', 'c']]);
    expect(events.filter((e) => e.kind === 'reconnect')).toEqual([{ kind: 'reconnect', count: 1, reason: 'eof' }]);
    expect(afters()).toEqual(['0', '2']);
    expect(delays).toEqual([250]);
    expect(s.reconnects).toBe(1);
  });

  it('a mid-body reset reconnects from the last accepted frame, discarding the partial line', async () => {
    connects.push((_req, res) => {
      startNdjson(res);
      resetAfter(res, `${frameLine(dataFrame(1, 'a'))}{"type":"data","seq":2,"str`);
    });
    connects.push(frames(dataFrame(2, 'b'), exitFrame(0)));
    const { events, s } = stream({ reconnectDelayMs: 5 });
    await s.run(AbortSignal.timeout(10_000));
    expect(dataOf(events)).toEqual([[1, 'stdout', 'a'], [2, 'stdout', 'b']]);
    expect(events.find((e) => e.kind === 'reconnect')).toEqual({ kind: 'reconnect', count: 1, reason: 'reset' });
    expect(afters()).toEqual(['0', '1']);
    expect(delays).toEqual([5]);
  });

  it('429, 5xx and network failures on connect reconnect, with the count published each time', async () => {
    connects.push((_req, res) => failWithSecret(res, 429, { 'retry-after': '0' }));
    connects.push((_req, res) => failWithSecret(res, 503));
    connects.push((_req, res) => res.socket?.destroy());
    connects.push(frames(dataFrame(1, 'ok'), exitFrame(0)));
    const { events, s } = stream();
    await s.run(AbortSignal.timeout(10_000));
    expect(events.filter((e) => e.kind === 'reconnect')).toEqual([
      { kind: 'reconnect', count: 1, reason: 'rate_limited' },
      { kind: 'reconnect', count: 2, reason: 'server_error' },
      { kind: 'reconnect', count: 3, reason: 'network' },
    ]);
  });

  it('after 4 attempts: "ended without an exit status" when streams ended, "connection failed" when connects failed', async () => {
    for (let i = 0; i < 4; i += 1) connects.push(frames(dataFrame(i + 1, String(i))));
    const first = stream();
    const error = await failure(first.s, 'CreateOS process stream ended without an exit status.');
    expect(error.code).toBe('stream_failed');
    expect(first.events.filter((e) => e.kind === 'reconnect').map((e) => (e.kind === 'reconnect' ? e.count : 0))).toEqual([1, 2, 3]);
    expect(first.s.reconnects).toBe(3);

    for (let i = 0; i < 4; i += 1) connects.push((_req, res) => failWithSecret(res, 500));
    await failure(stream().s, 'CreateOS process output connection failed.');

    for (let i = 0; i < 2; i += 1) connects.push((_req, res) => failWithSecret(res, 500));
    await failure(stream({ maxAttempts: 2 }).s, 'CreateOS process output connection failed.');
  });

  it('budget spent: /wait?scope=tree gives the exit when newest_seq equals the cursor', async () => {
    for (let i = 0; i < 4; i += 1) connects.push(frames(dataFrame(1, 'a'), dataFrame(2, 'b')));
    others = (req, res) => {
      if (req.path.endsWith('/wait')) success(res, managedProcess('p_1', { state: 'exited', exit_code: 7, tree_exited: true, output: { oldest_seq: 1, newest_seq: 2, bytes: 2 } }));
      else failWithSecret(res, 404);
    };
    const { events, s } = stream({ waitTimeoutMs: 1_000 });
    expect(await s.run(AbortSignal.timeout(10_000))).toEqual({ kind: 'exit', exitCode: 7, signal: null, source: 'wait' });
    const wait = server.requests.find((r) => r.path.endsWith('/wait'));
    expect([wait?.query.get('scope'), wait?.query.get('timeout_ms')]).toEqual(['tree', '1000']);
    expect(events.at(-1)?.kind).toBe('exit');
  });

  it('budget spent: /wait is not trusted when output is missing or it fails', async () => {
    for (let i = 0; i < 4; i += 1) connects.push(frames(dataFrame(1, 'a')));
    others = (_req, res) => success(res, managedProcess('p_1', { state: 'exited', exit_code: 0, output: { oldest_seq: 1, newest_seq: 2 } }));
    await failure(stream({ waitTimeoutMs: 1_000 }).s, 'CreateOS process stream ended without an exit status.');
    for (let i = 0; i < 4; i += 1) connects.push((_req, res) => failWithSecret(res, 502));
    others = (_req, res) => failWithSecret(res, 500);
    await failure(stream({ waitTimeoutMs: 1_000 }).s, 'CreateOS process output connection failed.');
  });

  it('protocol errors are fatal and never reconnect', async () => {
    const cases: [Step, string][] = [
      [frames(dataFrame(1, 'a'), dataFrame(3, 'c')), 'CreateOS process output has a sequence gap.'],
      [frames(dataFrame(2, 'b')), 'CreateOS process output has a sequence gap.'],
      [frames('[1]\n'), 'CreateOS returned an invalid process frame.'],
      [frames({ type: 'data', seq: 1, stream: 'pty', data_base64: 'YQ==' }), 'CreateOS process output is invalid.'],
      [frames({ type: 'data', seq: 1, stream: 'stdout', data_base64: 'Y Q==' }), 'CreateOS process output is invalid.'],
      [frames({ type: 'data', seq: 0, stream: 'stdout', data_base64: '' }), 'CreateOS process sequence is invalid.'],
      [frames({ type: 'exit' }), 'CreateOS process exit status is missing.'],
      [frames({ type: 'error', error: SECRET_BODY }), 'CreateOS process stream reported an error.'],
      [frames({ type: 'weird' }), 'CreateOS returned an unknown process event.'],
      [frames(`{"type":"data","pad":"${'x'.repeat(1_048_600)}"}\n`), 'CreateOS process frame is too large.'],
      [(_req, res) => failWithSecret(res, 403), 'CreateOS request failed (HTTP 403) during output connection.'],
      [(_req, res) => { res.writeHead(307, { location: '/elsewhere' }); res.end(SECRET_BODY); }, 'CreateOS request failed (HTTP 307) during output connection.'],
      [(_req, res) => { res.writeHead(204); res.end(); }, 'CreateOS returned an empty process stream.'],
    ];
    for (const [step, message] of cases) {
      connects.push(step);
      const { events } = { events: [] as StreamEvent[] };
      const before = afters().length;
      await failure(stream({ onEvent: (e) => events.push(e) }).s, message);
      expect(afters().length - before).toBe(1);
      expect(events.some((e) => e.kind === 'reconnect')).toBe(false);
    }
  });

  it('replayed duplicates are dropped before their content is checked', async () => {
    connects.push(frames(dataFrame(1, 'a'), dataFrame(2, 'b')));
    connects.push(frames(
      { type: 'data', seq: 1, stream: 'pty', data_base64: '!!' },
      { type: 'data', seq: 2, stream: 'stdout', data_base64: 'not base64' },
      { type: 'data', seq: 2 },
      dataFrame(3, 'c'),
      exitFrame(0),
    ));
    const { events, s } = stream();
    expect(await s.run(AbortSignal.timeout(10_000))).toMatchObject({ exitCode: 0 });
    expect(dataOf(events)).toEqual([[1, 'stdout', 'a'], [2, 'stdout', 'b'], [3, 'stdout', 'c']]);
    expect(afters()).toEqual(['0', '2']);
  });

  it('a gap is reported as a gap even when the frame is also malformed; kept frames are still checked', async () => {
    connects.push(frames(dataFrame(1, 'a'), { type: 'data', seq: 3, stream: 'stdout', data_base64: 'Y Q==' }));
    await failure(stream().s, 'CreateOS process output has a sequence gap.');
    connects.push(frames({ type: 'data', seq: 2, stream: 'pty', data_base64: 'YQ==' }));
    await failure(stream().s, 'CreateOS process output has a sequence gap.');
    connects.push(frames(dataFrame(1, 'a'), { type: 'data', seq: 2, stream: 'stdout', data_base64: 'Y Q==' }));
    await failure(stream().s, 'CreateOS process output is invalid.');
  });

  it('a 204 destroys the response body before "empty process stream"', async () => {
    const destroyed: (Error | undefined)[] = [];
    const body = Object.assign((async function* empty(): AsyncGenerator<Buffer> {})(), {
      destroy: (error?: Error) => destroyed.push(error),
    });
    const api = { connectOutput: () => Promise.resolve({ status: 204, body }) } as unknown as CreateosApi;
    const s = new ProcessOutputStream(api, { sandboxId: 'sb_1', processId: 'p_1', waitTimeoutMs: 0 });
    await failure(s, 'CreateOS returned an empty process stream.');
    expect(destroyed).toHaveLength(1);
  });

  it('eviction (410 or output_offset_expired) is an explicit error', async () => {
    connects.push((_req, res) => failWithSecret(res, 410));
    const by410 = await failure(stream().s, 'CreateOS process output was evicted before it could be read.');
    expect(by410.code).toBe('evicted');
    connects.push(frames(dataFrame(1, 'a'), { type: 'error', error: 'output_offset_expired', oldest_available_seq: 5 }));
    const byFrame = await failure(stream().s, 'CreateOS process output was evicted before it could be read.');
    expect(byFrame.code).toBe('evicted');
  });

  it('decodes UTF-8 split across frames per stream, flushing a dangling sequence at exit', async () => {
    const euro = Buffer.from('€', 'utf8');
    const smile = Buffer.from('😀', 'utf8');
    connects.push(frames(
      dataFrame(1, euro.subarray(0, 2)),
      dataFrame(2, smile.subarray(0, 1), 'stderr'),
      dataFrame(3, Buffer.concat([euro.subarray(2), Buffer.from('!')])),
      dataFrame(4, smile.subarray(1), 'stderr'),
      dataFrame(5, euro.subarray(0, 1)),
      exitFrame(0),
    ));
    const { events, s } = stream();
    await s.run(AbortSignal.timeout(10_000));
    expect(dataOf(events)).toEqual([
      [1, 'stdout', ''],
      [2, 'stderr', ''],
      [3, 'stdout', '€!'],
      [4, 'stderr', '😀'],
      [5, 'stdout', ''],
      [5, 'stdout', '\uFFFD'],
    ]);
    expect(events.filter((e) => e.kind === 'data').map((e) => (e.kind === 'data' ? e.bytes : -1))).toEqual([2, 1, 2, 3, 1, 0]);
  });

  it('abort rejects with the signal reason', async () => {
    connects.push((_req, res) => {
      startNdjson(res);
      res.write(frameLine(dataFrame(1, 'a')));
    });
    const controller = new AbortController();
    const { s } = stream({ onEvent: () => controller.abort(new Error('stop now')) });
    await expect(s.run(controller.signal)).rejects.toThrow('stop now');
  });
});

describe('attach mode', () => {
  it('plans from seq 1 when it is retained, else from oldest_seq-1 with a gap', () => {
    expect(planAttach({ process_id: 'p', state: 'running' })).toEqual({ after: 0 });
    expect(planAttach({ process_id: 'p', state: 'running', output: { oldest_seq: 1, newest_seq: 9 } })).toEqual({ after: 0 });
    expect(planAttach({ process_id: 'p', state: 'running', output: { oldest_seq: 0, newest_seq: 0 } })).toEqual({ after: 0 });
    expect(planAttach({ process_id: 'p', state: 'running', output: { oldest_seq: 5, newest_seq: 9 } })).toEqual({ after: 4, gap: { fromSeq: 1, toSeq: 4 } });
  });

  it('replays from 0 when the journal holds seq 1', async () => {
    others = (_req, res) => success(res, managedProcess('p_1', { output: { oldest_seq: 1, newest_seq: 1, bytes: 1 } }));
    connects.push(frames(dataFrame(1, 'a'), exitFrame(0)));
    const events: StreamEvent[] = [];
    await attachProcessOutput(client.api, { sandboxId: 'sb_1', processId: 'p_1', onEvent: (e) => events.push(e) }, AbortSignal.timeout(10_000));
    expect(events.map((e) => e.kind)).toEqual(['data', 'exit']);
    expect(afters()).toEqual(['0']);
  });

  it('starts after an explicit gap, and turns a later eviction into another gap', async () => {
    others = (_req, res) => success(res, managedProcess('p_1', { output: { oldest_seq: 5, newest_seq: 6, bytes: 10 } }));
    connects.push(frames(dataFrame(5, 'e'), dataFrame(6, 'f'), { type: 'error', error: 'output_offset_expired', oldest_available_seq: 9 }));
    connects.push((_req, res) => failWithSecret(res, 410));
    connects.push(frames(dataFrame(12, 'l'), exitFrame(1)));
    let lookups = 0;
    const base = others;
    others = (req, res) => {
      lookups += 1;
      if (lookups === 1) base(req, res);
      else success(res, managedProcess('p_1', { output: { oldest_seq: 12, newest_seq: 12 } }));
    };
    const events: StreamEvent[] = [];
    const exit = await attachProcessOutput(client.api, { sandboxId: 'sb_1', processId: 'p_1', onEvent: (e) => events.push(e), delay: () => Promise.resolve() }, AbortSignal.timeout(10_000));
    expect(exit.exitCode).toBe(1);
    expect(events.filter((e) => e.kind === 'gap' || e.kind === 'data').map((e) => (e.kind === 'gap' ? `gap ${e.fromSeq}-${e.toSeq}` : e.kind === 'data' ? `data ${e.seq}` : ''))).toEqual([
      'gap 1-4', 'data 5', 'data 6', 'gap 7-8', 'gap 9-11', 'data 12',
    ]);
    expect(afters()).toEqual(['4', '8', '11']);
  });
});
