// Test support only: a scripted node:http server on 127.0.0.1:0 standing in for the provider at the
// network seam, for the rare failures (resets, 3xx, bad JSON, secret bodies) a real server rarely shows.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CreateosApi } from './api';
import { parseCreateosConfig, type CreateosConfig } from './config';
import { CreateosHttpClient } from './http-client';
import { RequestPacer } from './pacer';

export const TEST_API_KEY = 'sk-test-SECRET-KEY-4242';
export const SECRET_BODY = 'LEAKED-SECRET-body-token-9f8e7d';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export type Handler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface ScriptedServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Replace the handler (per test or per phase). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startScriptedServer(initial: Handler = (_req, res) => notFound(res)): Promise<ScriptedServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    handle(next) {
      handler = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function success(res: ServerResponse, data: unknown, status = 200): void {
  sendJson(res, status, { status: 'success', data });
}

/** A failure whose body carries a secret that must never surface. */
export function failWithSecret(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  sendJson(res, status, { status: 'error', message: `denied ${SECRET_BODY}`, code: SECRET_BODY }, headers);
}

export function notFound(res: ServerResponse): void {
  failWithSecret(res, 404);
}

/** Starts an NDJSON response; write frames with `frame()`. */
export function startNdjson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
}

export function frameLine(frame: unknown): string {
  return `${JSON.stringify(frame)}\n`;
}

export function dataFrame(seq: number, text: string | Buffer, stream: 'stdout' | 'stderr' = 'stdout'): Record<string, unknown> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return { type: 'data', seq, stream, data_base64: bytes.toString('base64') };
}

export function exitFrame(exitCode: number | null, signal: string | null = null): Record<string, unknown> {
  return { type: 'exit', exit_code: exitCode, signal };
}

/** Sends a partial chunked body, then resets the connection. */
export function resetAfter(res: ServerResponse, text: string): void {
  res.write(text, () => {
    setImmediate(() => res.socket?.destroy());
  });
}

export function managedProcess(processId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { process_id: processId, state: 'running', kind: 'process', pid: 42, leader_exited: false, tree_exited: false, ...extra };
}

export interface TestClient {
  readonly config: CreateosConfig;
  readonly http: CreateosHttpClient;
  readonly api: CreateosApi;
  readonly pacer: RequestPacer;
  dispose(): Promise<void>;
}

/** A client on its own (unpaced) pacer, so tests do not wait 300 ms per request. */
export function testClient(url: string, options: { timeoutMs?: number; pacer?: RequestPacer } = {}): TestClient {
  const config = parseCreateosConfig({ apiUrl: url, apiKey: TEST_API_KEY, timeoutMs: options.timeoutMs ?? 10_000 });
  const pacer = options.pacer ?? new RequestPacer({ intervalMs: 0 });
  const http = new CreateosHttpClient({ config, pacer });
  const api = new CreateosApi(http);
  return {
    config,
    http,
    api,
    pacer,
    async dispose() {
      pacer.dispose();
      await http.dispose();
    },
  };
}

/** Everything an error exposes, for secret checks. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = Object.getOwnPropertyNames(error).map((key) => `${key}=${String((error as unknown as Record<string, unknown>)[key])}`);
  return [error.message, error.stack ?? '', String(error.cause), JSON.stringify(error), ...own].join('\n');
}

export async function captureError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
