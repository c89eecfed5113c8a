// Browser mode: the same host behind HTTP (the built renderer) and a WebSocket (the contract).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RPCHandler } from '@orpc/server/ws';
import { WebSocketServer } from 'ws';
import { mapErrorsInterceptor } from '../host/error-interceptor';
import type { HostRouter } from '../host/routers';
import { BrowserAuth } from './browser-auth';
import { securityHeaders } from './security-headers';
import { readStaticFile } from './static-files';

export interface ConsoleServerOptions {
  router: HostRouter;
  token: string;
  staticDir: string;
  port: number;
  host?: string;
  log?: (line: string) => void;
}

export interface ConsoleServer {
  readonly port: number;
  /** The URL to open, token included. */
  readonly url: string;
  close(): Promise<void>;
}

const rpcPath = '/rpc';

/** The request target as a URL, or null when it cannot be parsed or its path is badly escaped. */
function requestUrl(req: IncomingMessage): URL | null {
  try {
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return null;
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const bindHost = options.host ?? '127.0.0.1';
  const handler = new RPCHandler(options.router, { clientInterceptors: [mapErrorsInterceptor] });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  let auth = new BrowserAuth({ token: options.token, port: 0, allowedHosts: [] });

  const server = createServer((req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      options.log?.(`console server: ${req.method ?? '?'} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, 'Internal error.');
      else res.destroy();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!auth.hostAllowed(req.headers.host)) return refuse(res, 421, 'Unknown Host header.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
    const url = requestUrl(req);
    if (url === null) return refuse(res, 400, 'Malformed request path.');
    const token = url.searchParams.get('token');
    if (token !== null) {
      if (!auth.tokenMatches(token)) return refuse(res, 401, 'Invalid token. Open the URL the console printed at start.');
      url.searchParams.delete('token');
      // Always a path on this origin: "//host/" would be read as another site.
      res.writeHead(303, { ...securityHeaders(), 'Set-Cookie': auth.sessionCookie(), Location: `/${url.pathname.replace(/^\/+/, '')}${url.search}` });
      res.end();
      return;
    }
    if (!auth.hasSession(req.headers.cookie)) return refuse(res, 401, 'Not signed in. Open the URL with the token that the console printed at start.');
    const file = await readStaticFile(options.staticDir, url.pathname);
    const fallback = file ?? (url.pathname.includes('.') ? null : await readStaticFile(options.staticDir, '/'));
    if (!fallback) return refuse(res, 404, 'Not found.');
    res.writeHead(200, { ...securityHeaders(), 'Content-Type': fallback.contentType });
    res.end(req.method === 'HEAD' ? undefined : fallback.body);
  }

  server.on('upgrade', (req, socket, head) => {
    const path = requestUrl(req)?.pathname;
    const allowed = path === rpcPath && auth.hostAllowed(req.headers.host) && auth.originAllowed(req.headers.origin) && auth.hasSession(req.headers.cookie);
    if (!allowed) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      void handler.upgrade(ws, { context: { actor: 'operator (browser)' } });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  auth = new BrowserAuth({ token: options.token, port, allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`] });

  return {
    port,
    url: `http://127.0.0.1:${port}/?token=${options.token}`,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
