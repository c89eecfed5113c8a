// HTTP transport for the CreateOS API (§1, §5) on undici: paced, redirect-refusing, envelope-checked.
// Failure bodies are discarded unread; the API key is only ever placed in the X-Api-Key header.
import { Agent, type Dispatcher } from 'undici';
import type { CreateosConfig } from './config';
import { CreateosError, httpError, labelForPath, messages } from './errors';
import { parseRetryAfter, sharedPacers, type RequestPacer } from './pacer';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Query = Readonly<Record<string, string | number | undefined>>;

export interface CreateosHttpClientOptions {
  readonly config: CreateosConfig;
  /** Defaults to the process-wide pacer of the config's origin. */
  readonly pacer?: RequestPacer;
  /** Defaults to an Agent owned (and closed by dispose()) by this client. */
  readonly dispatcher?: Dispatcher;
  /** How often an idempotent request (GET, PUT, DELETE) is repeated after a 429. Default 2. */
  readonly rateLimitRetries?: number;
  /** Largest JSON body accepted. Default 32 MiB. */
  readonly maxJsonBytes?: number;
  /** Largest file download accepted. Default 256 MiB. */
  readonly maxDownloadBytes?: number;
  /** Clock used to read HTTP-date Retry-After values. */
  readonly now?: () => number;
}

export interface RequestOptions {
  readonly query?: Query;
  /** The deadline; when absent, AbortSignal.timeout(config.timeoutMs) is used. */
  readonly signal?: AbortSignal;
  /** Non-2xx statuses that are answers rather than failures (e.g. 404 on DELETE). Their bodies are discarded. */
  readonly okStatuses?: readonly number[];
}

export interface JsonRequestOptions extends RequestOptions {
  readonly body?: unknown;
  /** §10: list endpoints may answer with a bare array as `data`. */
  readonly allowArrayData?: boolean;
}

export interface JsonResult {
  readonly status: number;
  /** The envelope's `data` (an object, or an array where allowed) on 2xx; undefined for an ok non-2xx status. */
  readonly data: unknown;
}

export interface StreamRequestOptions extends RequestOptions {
  readonly accept?: string;
  /** Longest silence between body chunks before the connection counts as broken; 0 = none (default). */
  readonly idleTimeoutMs?: number;
}

export interface StreamResponse {
  readonly status: number;
  /** Present only on a 2xx other than 204; the caller must consume or destroy it. */
  readonly body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown } | undefined;
}

const FAILURE_DUMP_LIMIT = 64 * 1024;
const NO_CONTENT = 204;

export class CreateosHttpClient {
  readonly config: CreateosConfig;
  readonly pacer: RequestPacer;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly rateLimitRetries: number;
  private readonly maxJsonBytes: number;
  private readonly maxDownloadBytes: number;
  private readonly now: () => number;
  private disposed = false;

  constructor(options: CreateosHttpClientOptions) {
    this.config = options.config;
    this.pacer = options.pacer ?? sharedPacers.forOrigin(options.config.origin);
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connect: { timeout: 30_000 } });
    this.rateLimitRetries = options.rateLimitRetries ?? 2;
    this.maxJsonBytes = options.maxJsonBytes ?? 32 * 1024 * 1024;
    this.maxDownloadBytes = options.maxDownloadBytes ?? 256 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** A JSON request whose 2xx answer must be `{status:"success", data:{…}}`. */
  async json(method: HttpMethod, path: string, requestOptions: JsonRequestOptions = {}): Promise<JsonResult> {
    const options = this.withDeadline(requestOptions);
    const hasBody = options.body !== undefined;
    const response = await this.send(method, path, options, {
      headers: hasBody ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
      body: hasBody ? JSON.stringify(options.body) : undefined,
    });
    if (!isSuccess(response.statusCode)) {
      await discard(response.body);
      return { status: response.statusCode, data: undefined };
    }
    const bytes = await this.readAll(response.body, this.maxJsonBytes, path, options.signal);
    return { status: response.statusCode, data: parseEnvelope(bytes, options.allowArrayData === true) };
  }

  /** PUT raw bytes; the answer's body is ignored. */
  async putBytes(path: string, bytes: Uint8Array, requestOptions: RequestOptions = {}): Promise<number> {
    const options = this.withDeadline(requestOptions);
    const response = await this.send('PUT', path, options, {
      headers: { 'content-type': 'application/octet-stream', accept: 'application/json' },
      body: bytes,
    });
    await discard(response.body);
    return response.statusCode;
  }

  /** GET raw bytes (file download). */
  async getBytes(path: string, requestOptions: RequestOptions = {}): Promise<Buffer | undefined> {
    const options = this.withDeadline(requestOptions);
    const response = await this.send('GET', path, options, { headers: { accept: 'application/octet-stream' }, body: undefined });
    if (!isSuccess(response.statusCode)) {
      await discard(response.body);
      return undefined;
    }
    return this.readAll(response.body, this.maxDownloadBytes, path, options.signal);
  }

  /**
   * Opens a streaming GET. Never retried here: a 429, 5xx or other status is returned for the
   * caller to decide (its body already discarded). Network failures throw "connection failed.".
   */
  async openStream(path: string, options: StreamRequestOptions = {}): Promise<StreamResponse> {
    const response = await this.send('GET', path, { ...this.withDeadline(options), okStatuses: allStatuses }, {
      headers: { accept: options.accept ?? 'application/x-ndjson' },
      body: undefined,
      rateLimitRetries: 0,
      bodyTimeoutMs: options.idleTimeoutMs ?? 0,
    });
    // A 204 has nothing to stream: release it here, so its abort listener leaves the caller's signal.
    if (!isSuccess(response.statusCode) || response.statusCode === NO_CONTENT) {
      await discard(response.body);
      return { status: response.statusCode, body: undefined };
    }
    return { status: response.statusCode, body: response.body };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.ownsDispatcher) await this.dispatcher.destroy().catch(() => undefined);
  }

  private async send(
    method: HttpMethod,
    path: string,
    options: RequestOptions,
    extra: {
      headers: Record<string, string>;
      body: string | Uint8Array | undefined;
      rateLimitRetries?: number;
      bodyTimeoutMs?: number;
    },
  ): Promise<Dispatcher.ResponseData> {
    if (this.disposed) throw new CreateosError('connection', messages.connectionFailed, { label: labelForPath(path), requestSent: false });
    const signal = options.signal ?? AbortSignal.timeout(this.config.timeoutMs);
    const retries = extra.rateLimitRetries ?? (method === 'POST' ? 0 : this.rateLimitRetries);
    const fullPath = `/v1${path}${queryString(options.query)}`;
    const label = labelForPath(path);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.pacer.acquire(signal);
      } catch {
        // Nothing left the host: the request provably had no effect.
        throw new CreateosError('aborted', messages.connectionFailed, { label, requestSent: false });
      }
      let response: Dispatcher.ResponseData;
      try {
        response = await this.dispatcher.request({
          origin: this.config.origin,
          path: fullPath,
          method,
          headers: { ...extra.headers, 'x-api-key': this.config.apiKey },
          body: extra.body ?? null,
          signal,
          ...(extra.bodyTimeoutMs === undefined ? {} : { bodyTimeout: extra.bodyTimeoutMs }),
        });
      } catch {
        // The cause (which may quote URLs or sockets) is dropped on purpose.
        throw new CreateosError(signal.aborted ? 'aborted' : 'connection', messages.connectionFailed, { label, requestSent: true });
      }
      const status = response.statusCode;
      if (status === 429) {
        this.pacer.holdFor(parseRetryAfter(response.headers['retry-after'], this.now()));
        if (attempt < retries) {
          await discard(response.body);
          continue;
        }
      }
      if (isSuccess(status) || options.okStatuses?.includes(status) === true) return response;
      await discard(response.body);
      throw httpError(status, path);
    }
  }

  private withDeadline<T extends RequestOptions>(options: T): T & { readonly signal: AbortSignal } {
    return { ...options, signal: options.signal ?? AbortSignal.timeout(this.config.timeoutMs) };
  }

  private async readAll(body: Dispatcher.ResponseData['body'], limit: number, path: string, signal: AbortSignal | undefined): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > limit) {
          body.destroy();
          throw new CreateosError('invalid_response', messages.invalidResponse);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof CreateosError) throw error;
      throw new CreateosError(signal?.aborted === true ? 'aborted' : 'connection', messages.connectionFailed, {
        label: labelForPath(path),
        requestSent: true,
      });
    }
    return Buffer.concat(chunks, total);
  }
}

const allStatuses: readonly number[] = Array.from({ length: 600 }, (_, i) => i);

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  try {
    await body.dump({ limit: FAILURE_DUMP_LIMIT });
  } catch {
    body.destroy();
  }
}

/** §1: `{status:"success", data:{…}}`; `data` must be an object (or an array where allowed). */
export function parseEnvelope(bytes: Uint8Array, allowArrayData = false): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new CreateosError('invalid_json', messages.invalidJson);
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { status?: unknown }).status !== 'success') {
    throw new CreateosError('unsuccessful', messages.unsuccessful);
  }
  const data = (parsed as { data?: unknown }).data;
  const isArray = Array.isArray(data);
  if (typeof data !== 'object' || data === null || (isArray && !allowArrayData)) {
    throw new CreateosError('invalid_response', messages.invalidResponse);
  }
  return data;
}
