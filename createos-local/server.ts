// createos-local: an embedded CreateOS-compatible sandbox provider running real processes.
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAdmin } from './admin';
import { HEARTBEAT_MS } from './connect';
import { makeAuth, RateLimiter } from './auth';
import { FaultRegistry, type FaultSpec } from './faults';
import { answerClientError, HttpError, notFound, ok, requestUrl, sendError, sendJson } from './http';
import { detectIsolation, type IsolationKind } from './isolation';
import { detectMembership } from './membership';
import { handleV1, type RouteContext } from './routes-sandboxes';
import { SandboxRegistry } from './sandbox';

export type { FaultSpec } from './faults';
export { findSandboxProcesses } from './process-table';

export interface CreateosLocalOptions {
  apiKey: string;
  dataDir: string;
  /** 0 = a free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** per-process output journal, default 1 MiB */
  journalBytes?: number;
  faults?: FaultSpec[];
  log?: (line: string) => void;
  /** Force a weaker isolation (tests of the fallbacks). */
  isolation?: IsolationKind;
  /** Default 300 requests per minute per client address. */
  rateLimitPerMinute?: number;
  /** Idle interval between connect heartbeats, default 3000 ms. */
  heartbeatMs?: number;
  /**
   * Time allowed to receive a whole request (headers and body), default 300,000 ms; past it the
   * connection gets a 408 and is closed. Responses are not limited: a long `connect` stream or
   * `wait` is a response to a request already received.
   */
  requestTimeoutMs?: number;
  /** Time allowed to receive the request headers, default 30,000 ms (at most requestTimeoutMs). */
  headersTimeoutMs?: number;
}

export interface CreateosLocal {
  /** http://127.0.0.1:P (no /v1) */
  readonly url: string;
  readonly port: number;
  readonly isolation: IsolationKind;
  /** Kills every sandbox process it started. */
  close(): Promise<void>;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startCreateosLocal(opts: CreateosLocalOptions): Promise<CreateosLocal> {
  if (opts.apiKey.length === 0 || /[\r\n\0]/.test(opts.apiKey)) throw new Error('createos-local: apiKey must be a non-empty string without CR, LF or NUL');
  const log = opts.log ?? (() => undefined);
  const isolation = detectIsolation(opts.isolation);
  log(
    isolation.kind === 'bwrap'
      ? 'createos-local isolation: bwrap (own root, PID namespace)'
      : `createos-local isolation: ${isolation.kind} (bubblewrap unavailable; sandbox paths are host directories under the data dir)`,
  );
  // How process trees are told apart (cgroup, or the environment-marker fallback), once.
  log(detectMembership().description);
  await mkdir(`${opts.dataDir}/sandboxes`, { recursive: true });
  const registry = new SandboxRegistry({ dataDir: opts.dataDir, isolation, journalBytes: opts.journalBytes ?? 1024 * 1024 });
  const faults = new FaultRegistry();
  faults.onEvict = (sandboxId, bytes) => {
    const sb = registry.all().find((s) => s.id === sandboxId);
    if (sb === undefined) return;
    sb.journalBytes = bytes;
    sb.forcedJournal = true;
    for (const p of sb.processes.values()) p.journal.setCap(bytes, true);
  };
  for (const f of opts.faults ?? []) faults.arm(f);
  const auth = makeAuth(opts.apiKey);
  const limiter = new RateLimiter();
  const perMinute = opts.rateLimitPerMinute ?? 300;

  /**
   * Authenticates before anything else: /v1 routes throw 401 without a valid key (the public catalog
   * only when a wrong key is sent); outside /v1 (probes, unknown paths) it only reports whether a valid key came.
   */
  function authenticate(root: string | undefined, rest: string[], req: IncomingMessage): boolean {
    const publicCatalog = root === 'v1' && req.method === 'GET' && rest.length === 1 && (rest[0] === 'shapes' || rest[0] === 'rootfs');
    if (root !== 'v1') {
      try {
        auth(req);
        return true;
      } catch {
        return false;
      }
    }
    if (!publicCatalog || req.headers['x-api-key'] !== undefined) auth(req);
    return req.headers['x-api-key'] !== undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req);
    const segments = url.pathname.split('/').filter((s) => s.length > 0).map(decodeURIComponent);
    const ctx: RouteContext = { req, res, url, registry, faults, log, heartbeatMs: opts.heartbeatMs ?? HEARTBEAT_MS };
    const [root, ...rest] = segments;
    if (root === 'admin') {
      auth(req);
      return handleAdmin(ctx, faults, rest);
    }
    // Faults only ever affect authenticated requests, matched on the path the router sees.
    if (authenticate(root, rest, req)) {
      const slow = faults.takeSlow(segments);
      if (slow > 0) await delay(slow);
      const injected = faults.takeHttpError(req.method ?? 'GET', segments);
      if (injected !== null) {
        const headers: Record<string, string> = injected.status >= 300 && injected.status < 400 ? { location: `/v1/redirected${url.pathname}` } : {};
        return sendJson(res, injected.status, injected.body, headers);
      }
    }
    if (root === 'healthz' && rest.length === 0) return ok(res, { up: true });
    if (root === 'readyz' && rest.length === 0) return ok(res, { ready: true });
    if (root !== 'v1') throw notFound(`no such route: ${url.pathname}`);
    limiter.check(req.socket.remoteAddress ?? 'unknown', faults.ratePerMinute(perMinute));
    return handleV1(ctx, rest);
  }

  const requestTimeout = opts.requestTimeoutMs ?? 300_000;
  const headersTimeout = Math.min(opts.headersTimeoutMs ?? 30_000, requestTimeout);
  if (!(requestTimeout > 0) || !(headersTimeout > 0)) throw new Error('createos-local: requestTimeoutMs and headersTimeoutMs must be positive');
  // Expiry is checked every connectionsCheckingInterval: a quarter of the shorter timeout.
  const connectionsCheckingInterval = Math.min(30_000, Math.max(50, Math.floor(headersTimeout / 4)));
  const server = createServer({ requestTimeout, headersTimeout, connectionsCheckingInterval }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof HttpError) return sendError(res, err);
      if (err instanceof URIError) return sendError(res, new HttpError(400, 'invalid_request', 'path is not valid percent-encoding'));
      log(`createos-local: internal error on ${req.method ?? '?'} ${req.url ?? '?'}: ${(err as Error).stack ?? String(err)}`);
      sendError(res, new HttpError(500, 'internal', 'internal error'));
    });
  });
  server.keepAliveTimeout = 5000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    isolation: isolation.kind,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await registry.closeAll();
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
