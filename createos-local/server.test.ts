import { readdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, decodeData, KEY, readFrames, startHarness, startProcess, until, type Harness, type ProcView } from './test-helpers';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ requestTimeoutMs: 1000, headersTimeoutMs: 500 });
});
afterEach(async () => {
  await h.close();
});

/** A raw connection that records what the server sends and whether it closed. */
function rawConnection(port: number): { socket: Socket; received: () => string; closed: () => boolean } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  let closed = false;
  socket.on('data', (b: Buffer) => (text += b.toString('utf8')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return { socket, received: () => text, closed: () => closed };
}

describe('request timeouts', { timeout: 30_000 }, () => {
  it('closes a connection whose request body stalls, with a JSON 408, leaving no file behind', async () => {
    const sb = await createSandbox(h);
    const c = rawConnection(h.server.port);
    c.socket.write(`PUT /v1/sandboxes/${sb}/files?path=%2Ftmp%2Fslow HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${KEY}\r\nContent-Length: 100\r\n\r\nab`);
    await until('stalled body closed', () => c.closed(), 10_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.received()).toMatch(/"code":"request_timeout"/);
    const tmp = path.join(h.dataDir, 'sandboxes', sb, 'root', 'tmp');
    await until('upload cleaned up', async () => (await readdir(tmp)).length === 0, 10_000);
    expect((await h.call('GET', '/v1/whoami')).status).toBe(200);
  });

  it('closes a connection whose headers stall', async () => {
    const c = rawConnection(h.server.port);
    c.socket.write(`GET /v1/whoami HTTP/1.1\r\nHost: x\r\nX-Api-`);
    await until('stalled headers closed', () => c.closed(), 10_000);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('does not cut long connect streams or long waits: they are responses, not requests', async () => {
    const sb = await createSandbox(h);
    // Output spread over ~3 s: three times the request timeout.
    const p = await startProcess(h, sb, 'for i in $(seq 1 15); do echo line-$i; sleep 0.2; done');
    const q = await startProcess(h, sb, 'sleep 3');
    const [stream, waited] = await Promise.all([
      h.raw('GET', `/v1/sandboxes/${sb}/processes/${p.process_id}/connect?after=0`).then(readFrames),
      h.call<ProcView>('GET', `/v1/sandboxes/${sb}/processes/${q.process_id}/wait?scope=tree&timeout_ms=20000`),
    ]);
    expect(stream.error).toBeNull();
    expect(stream.frames.at(-1)?.type).toBe('exit');
    expect(decodeData(stream.frames)).toBe(Array.from({ length: 15 }, (_, i) => `line-${i + 1}\n`).join(''));
    expect(waited.status).toBe(200);
    expect(waited.body.data.tree_exited).toBe(true);
  });
});
