import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createORPCClient } from '@orpc/client';
import { RPCLink } from '@orpc/client/websocket';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ConsoleClient } from '../../shared/contract';
import { createFakeHost } from '../../test/fakes/host-services';
import { createHostRouter } from '../host/routers';
import { startConsoleServer, type ConsoleServer } from './console-server';

const token = 'test-token-0123456789abcdef';
let server: ConsoleServer;
let dir: string;

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function signIn(): Promise<string> {
  const response = await get(`/?token=${token}`);
  const cookie = String(response.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  return cookie;
}

/** A WebSocket upgrade request for any target, sent as raw bytes; resolves with the whole answer. */
function rawUpgrade(target: string, cookie: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write([
        `GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `Origin: http://127.0.0.1:${server.port}`, `Cookie: ${cookie}`,
        'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', '', '',
      ].join('\r\n'));
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => { answer += chunk.toString(); });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function openSocket(headers: Record<string, string>): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lw-server-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Leasewatch</title>');
  server = await startConsoleServer({ router: createHostRouter(createFakeHost().services), token, staticDir: dir, port: 0 });
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('console server (browser mode)', () => {
  it('prints a loopback URL with the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${token}`);
  });

  it('refuses requests without the token or cookie, and a wrong token', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=wrong')).status).toBe(401);
  });

  it('exchanges the token for an HttpOnly SameSite=Strict cookie and drops it from the address bar', async () => {
    const response = await get(`/?token=${token}`);
    expect(response.status).toBe(303);
    expect(response.headers['location']).toBe('/');
    expect(String(response.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    // Named after the port: a second console on this machine keeps its own session.
    expect(String(response.headers['set-cookie'])).toMatch(new RegExp(`^leasewatch_session_${server.port}=`));
    const page = await get('/', { cookie: await signIn() });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers malformed request targets with 400 and keeps serving (signed in or not, HTTP or upgrade)', async () => {
    const cookie = await signIn();
    expect((await get('//[')).status).toBe(400);
    expect((await get('/%E0', { cookie })).status).toBe(400);
    expect((await get('/%E0')).status).toBe(400);
    expect(await rawUpgrade('//[', cookie)).toMatch(/^HTTP\/1\.1 401 /);
    expect((await get('/', { cookie })).status).toBe(200);
  });

  it('redirects after the token exchange only to a path on its own origin', async () => {
    const response = await get(`/.//evil.example/?token=${token}`);
    expect(response.status).toBe(303);
    expect(response.headers['location']).toBe('/evil.example/');
  });

  it('refuses a foreign Host header even with a valid cookie', async () => {
    const cookie = await signIn();
    expect((await get('/', { cookie, host: 'evil.example' })).status).toBe(421);
  });

  it('refuses WebSocket upgrades without the cookie or from a foreign Origin', async () => {
    const cookie = await signIn();
    const origin = `http://127.0.0.1:${server.port}`;
    await expect(openSocket({ origin })).rejects.toThrow('upgrade refused: 401');
    await expect(openSocket({ cookie, origin: 'http://evil.example' })).rejects.toThrow('upgrade refused: 401');
    const ws = await openSocket({ cookie, origin });
    ws.close();
  });

  it('serves the contract over the WebSocket, names the bad field, and keeps serving', async () => {
    const ws = await openSocket({ cookie: await signIn(), origin: `http://127.0.0.1:${server.port}` });
    const client = createORPCClient<ConsoleClient>(new RPCLink({ websocket: ws as unknown as globalThis.WebSocket }));
    await expect(client.leases.destroy({ leaseId: 'no/such id', reason: 'x' })).rejects.toThrow(/Invalid input: leaseId: must be a CreateOS id/);
    await expect(client.processes.run({ leaseId: 'sb_1', command: '' })).rejects.toThrow(/command: a command is required/);
    await expect(client.system.info()).resolves.toMatchObject({ mode: 'browser' });
    ws.close();
  });
});
