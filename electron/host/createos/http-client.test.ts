import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateosError } from './errors';
import { parseEnvelope } from './http-client';
import { RequestPacer } from './pacer';
import {
  captureError,
  errorText,
  failWithSecret,
  resetAfter,
  SECRET_BODY,
  sendJson,
  startScriptedServer,
  success,
  TEST_API_KEY,
  testClient,
  type ScriptedServer,
  type TestClient,
} from './test-support';

class RecordingPacer extends RequestPacer {
  readonly holds: number[] = [];
  constructor() {
    super({ intervalMs: 0 });
  }
  override holdFor(ms: number): void {
    this.holds.push(ms);
  }
}

let server: ScriptedServer;
let client: TestClient;

beforeEach(async () => {
  server = await startScriptedServer();
  client = testClient(server.url);
});

afterEach(async () => {
  await client.dispose();
  await server.close();
});

async function expectFailure(promise: Promise<unknown>, message: string): Promise<CreateosError> {
  const error = await captureError(promise);
  expect(error).toBeInstanceOf(CreateosError);
  expect((error as Error).message).toBe(message);
  const text = errorText(error);
  expect(text).not.toContain(SECRET_BODY);
  expect(text).not.toContain(TEST_API_KEY);
  expect((error as Error).cause).toBeUndefined();
  return error as CreateosError;
}

describe('CreateosHttpClient', () => {
  it('sends JSON with X-Api-Key under /v1 and returns the envelope data', async () => {
    server.handle((req, res) => success(res, { id: 'sb_1', echo: JSON.parse(req.body.toString()) as unknown }));
    const result = await client.http.json('POST', '/sandboxes', { body: { shape: 's' }, query: { a: 1, b: undefined } });
    expect(result).toEqual({ status: 200, data: { id: 'sb_1', echo: { shape: 's' } } });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/sandboxes');
    expect(request?.query.get('a')).toBe('1');
    expect(request?.query.has('b')).toBe(false);
    expect(request?.headers['x-api-key']).toBe(TEST_API_KEY);
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('sends no body and no content type on body-less POST and DELETE', async () => {
    server.handle((_req, res) => success(res, {}));
    await client.http.json('POST', '/sandboxes/sb_1/pause');
    await client.http.json('DELETE', '/sandboxes/sb_1');
    for (const request of server.requests) {
      expect(request.body.length).toBe(0);
      expect(request.headers['content-type']).toBeUndefined();
    }
  });

  it('fails on any non-2xx with the labelled message and never reads the body', async () => {
    server.handle((_req, res) => failWithSecret(res, 500));
    const error = await expectFailure(client.http.json('POST', '/sandboxes/sb_1/processes', { body: {} }), 'CreateOS request failed (HTTP 500) during process creation.');
    expect(error.status).toBe(500);
    server.handle((_req, res) => failWithSecret(res, 403));
    await expectFailure(client.http.json('GET', '/sandboxes/sb_1'), 'CreateOS request failed (HTTP 403) during sandbox lifecycle.');
    await expectFailure(client.http.putBytes('/sandboxes/sb_1/files', Buffer.from('x'), { query: { path: '/a' } }), 'CreateOS request failed (HTTP 403) during file transfer.');
  });

  it('refuses redirects: a 3xx is a failure and the Location is not followed', async () => {
    server.handle((req, res) => {
      if (req.path === '/v1/sandboxes/sb_1') {
        res.writeHead(302, { location: `${server.url}/v1/elsewhere` });
        res.end(SECRET_BODY);
        return;
      }
      success(res, { id: 'sb_1', status: 'running' });
    });
    await expectFailure(client.http.json('GET', '/sandboxes/sb_1'), 'CreateOS request failed (HTTP 302) during sandbox lifecycle.');
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/sandboxes/sb_1']);
  });

  it('treats statuses listed as ok as answers without reading their body', async () => {
    server.handle((_req, res) => failWithSecret(res, 404));
    expect(await client.http.json('DELETE', '/sandboxes/sb_1', { okStatuses: [404] })).toEqual({ status: 404, data: undefined });
  });

  it('checks the envelope', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"status":"success","data":{"x":1} ${SECRET_BODY}`);
    });
    await expectFailure(client.http.json('GET', '/whoami'), 'CreateOS returned invalid JSON.');
    server.handle((_req, res) => sendJson(res, 200, { status: 'fail', data: { message: SECRET_BODY } }));
    await expectFailure(client.http.json('GET', '/whoami'), 'CreateOS returned an unsuccessful response.');
    server.handle((_req, res) => sendJson(res, 200, [SECRET_BODY]));
    await expectFailure(client.http.json('GET', '/whoami'), 'CreateOS returned an unsuccessful response.');
    for (const data of [null, 'x', 3, [1], undefined]) {
      server.handle((_req, res) => sendJson(res, 200, { status: 'success', data }));
      await expectFailure(client.http.json('GET', '/whoami'), 'CreateOS returned an invalid response.');
    }
    server.handle((_req, res) => sendJson(res, 200, { status: 'success', data: [1] }));
    expect((await client.http.json('GET', '/sandboxes', { allowArrayData: true })).data).toEqual([1]);
  });

  it('maps a refused connection, a reset before headers and a reset mid-body to "connection failed." without the cause', async () => {
    server.handle((_req, res) => {
      res.socket?.destroy();
    });
    await expectFailure(client.http.json('GET', '/whoami'), 'CreateOS connection failed.');
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      resetAfter(res, '{"status":"success","data":{');
    });
    await expectFailure(client.http.json('GET', '/whoami'), 'CreateOS connection failed.');
    const url = server.url;
    await server.close();
    const closed = testClient(url);
    try {
      const error = await expectFailure(closed.http.json('GET', '/whoami'), 'CreateOS connection failed.');
      expect(error.code).toBe('connection');
    } finally {
      await closed.dispose();
      server = await startScriptedServer();
    }
  });

  it('an aborted request fails as "connection failed." with code aborted; one aborted while queued was never sent', async () => {
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    server.handle(() => arrived()); // never answers
    const controller = new AbortController();
    const pending = client.http.json('GET', '/whoami', { signal: controller.signal });
    await received;
    controller.abort();
    const error = await expectFailure(pending, 'CreateOS connection failed.');
    expect(error.code).toBe('aborted');
    expect(error.requestSent).toBe(true);

    const slow = new RequestPacer({ intervalMs: 60_000 });
    const paced = testClient(server.url, { pacer: slow });
    try {
      server.handle((_req, res) => success(res, {}));
      await paced.http.json('GET', '/whoami');
      const queued = paced.http.json('GET', '/whoami', { signal: AbortSignal.abort() });
      const notSent = await expectFailure(queued, 'CreateOS connection failed.');
      expect(notSent.requestSent).toBe(false);
    } finally {
      await paced.dispose();
    }
  });

  it('openStream: a 204 has nothing to stream; its body is released, with its abort listener on the caller\'s signal', async () => {
    const controller = new AbortController();
    server.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const response = await client.http.openStream('/sandboxes/sb_1/processes/p_1/connect', { signal: controller.signal });
    expect(response).toEqual({ status: 204, body: undefined });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('uses the config timeout as the default deadline', async () => {
    await client.dispose();
    client = testClient(server.url, { timeoutMs: 50 });
    server.handle(() => undefined);
    const error = await expectFailure(client.http.json('GET', '/whoami'), 'CreateOS connection failed.');
    expect(error.code).toBe('aborted');
  });

  it('429: Retry-After holds the origin pacer; idempotent requests retry, POST does not', async () => {
    const pacer = new RecordingPacer();
    const paced = testClient(server.url, { pacer });
    try {
      let calls = 0;
      server.handle((_req, res) => {
        calls += 1;
        if (calls === 1) failWithSecret(res, 429, { 'retry-after': '7' });
        else success(res, { ok: true });
      });
      expect((await paced.http.json('GET', '/whoami')).data).toEqual({ ok: true });
      expect(pacer.holds).toEqual([7_000]);
      expect(calls).toBe(2);

      server.handle((_req, res) => failWithSecret(res, 429, { 'retry-after': '2' }));
      await expectFailure(paced.http.json('POST', '/sandboxes/sb_1/exec', { body: {} }), 'CreateOS request failed (HTTP 429) during workspace command.');
      await expectFailure(paced.http.json('GET', '/whoami'), 'CreateOS request failed (HTTP 429) during sandbox lifecycle.');
      expect(pacer.holds).toEqual([7_000, 2_000, 2_000, 2_000, 2_000]);
    } finally {
      await paced.dispose();
    }
  });

  it('429 Retry-After really delays the next start to that origin', async () => {
    let first = 0;
    let second = 0;
    server.handle((_req, res) => {
      if (first === 0) {
        first = Date.now();
        failWithSecret(res, 429, { 'retry-after': '1' });
      } else {
        second = Date.now();
        success(res, {});
      }
    });
    await client.http.json('GET', '/whoami');
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  it('round-trips raw bytes for files', async () => {
    server.handle((req, res) => {
      if (req.method === 'PUT') {
        expect(req.headers['content-type']).toBe('application/octet-stream');
        success(res, {});
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from([0, 1, 2, 255]));
    });
    expect(await client.http.putBytes('/sandboxes/sb_1/files', Buffer.from('abc'), { query: { path: '/tmp/a b' } })).toBe(200);
    expect(server.requests[0]?.query.get('path')).toBe('/tmp/a b');
    expect(server.requests[0]?.body.toString()).toBe('abc');
    expect(await client.http.getBytes('/sandboxes/sb_1/files', { query: { path: '/x' } })).toEqual(Buffer.from([0, 1, 2, 255]));
  });
});

describe('parseEnvelope', () => {
  it('rejects invalid UTF-8 as invalid JSON', () => {
    expect(() => parseEnvelope(Buffer.from([0x7b, 0xff, 0x7d]))).toThrow('CreateOS returned invalid JSON.');
  });
});
