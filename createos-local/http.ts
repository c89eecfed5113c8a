// HTTP plumbing: the `{status:"success", data}` envelope, JSON errors that name the problem,
// and bounded body reading validated with zod.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { z } from 'zod';

export const JSON_BODY_LIMIT = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra: Record<string, unknown> = {}) => new HttpError(400, 'invalid_request', message, extra);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const conflict = (message: string, extra: Record<string, unknown> = {}) => new HttpError(409, 'conflict', message, extra);

/** The request URL; an origin-form target is taken as a path, so `//v1/x` does not become host `v1`. */
export function requestUrl(req: IncomingMessage): URL {
  const target = req.url ?? '/';
  return target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target, 'http://localhost');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function ok(res: ServerResponse, data: Record<string, unknown>, status = 200): void {
  sendJson(res, status, { status: 'success', data });
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { status: 'error', code: err.code, message: err.message, ...err.extra }, err.headers);
}

const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'the request headers or body did not arrive in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'headers_too_large', 'request headers are too large'],
};

/**
 * `clientError` (malformed request, or headers/body slower than the server's timeouts): like Node's
 * default, but the answer is a JSON error naming the problem. Nothing is written if a response
 * has already started on the socket.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const code = err.code ?? 'error';
  const [status, reason, errCode, message] = CLIENT_ERRORS[code] ?? [400, 'Bad Request', 'invalid_request', `malformed HTTP request (${code})`];
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (code !== 'ECONNRESET' && socket.writable && (inFlight === undefined || inFlight === null || !inFlight.headersSent)) {
    const body = JSON.stringify({ status: 'error', code: errCode, message });
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** Reads the whole body, refusing more than `limit` bytes with 413. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  const tooLarge = () => new HttpError(413, 'payload_too_large', `request body exceeds ${limit} bytes`, { limit_bytes: limit }, { connection: 'close' });
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function describeIssues(error: z.ZodError, where: string): string {
  return error.issues
    .map((issue) => {
      const at = issue.path.length > 0 ? `${where}.${issue.path.map(String).join('.')}` : where;
      return `${at}: ${issue.message}`;
    })
    .join('; ');
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error, where), { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) });
  return parsed.data;
}

/** Parses a JSON body (an empty body counts as `{}`) and validates it. */
export async function readJson<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  const raw = await readBody(req, JSON_BODY_LIMIT);
  let value: unknown = {};
  if (raw.length > 0) {
    try {
      value = JSON.parse(raw.toString('utf8')) as unknown;
    } catch (err) {
      throw badRequest(`body is not valid JSON: ${(err as Error).message}`);
    }
  }
  return parseWith(schema, value, 'body');
}

/** Query parameters, validated by a strict schema (unknown parameters are a 400), each at most once. */
export function readQuery<T>(url: URL, schema: z.ZodType<T>): T {
  const obj = Object.create(null) as Record<string, string>;
  for (const [k, v] of url.searchParams) {
    if (Object.hasOwn(obj, k)) throw badRequest(`query.${k}: given more than once`);
    obj[k] = v;
  }
  return parseWith(schema, obj, 'query');
}
