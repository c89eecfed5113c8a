// Typed CreateOS calls (§2, §10) over CreateosHttpClient. Every `data` is parsed with zod.
import { CreateosError, messages } from './errors';
import type { CreateosHttpClient, StreamResponse } from './http-client';
import {
  assertResourceId,
  CreatedSandboxSchema,
  ExecResultSchema,
  invalidResponse,
  parseListPage,
  parseManagedProcess,
  parseResource,
  SandboxViewSchema,
  WhoamiSchema,
  type CreatedSandbox,
  type ExecResult,
  type ManagedProcess,
  type SandboxView,
  type Whoami,
} from './schemas';

export const LIST_PAGE_LIMIT = 500;
export const DEFAULT_LIST_CAP = 100_000;

export interface CallOptions {
  /** Deadline for the call; defaults to AbortSignal.timeout(config.timeoutMs). */
  readonly signal?: AbortSignal;
}

export interface CreateSandboxRequest {
  readonly shape: string;
  readonly rootfs?: string;
  readonly region?: string;
  readonly name?: string;
}

export type ListableSandboxStatus = 'running' | 'creating' | 'destroyed' | 'failed';

export interface ListSandboxesOptions extends CallOptions {
  readonly status?: ListableSandboxStatus;
  /** Most rows to return. Default 100,000. */
  readonly cap?: number;
}

export interface ExecRequest {
  readonly cmd: string;
  readonly args: readonly string[];
}

export interface CreateProcessRequest {
  readonly cmd: string;
  readonly args: readonly string[];
  readonly cwd?: string;
}

export type WaitScope = 'leader' | 'tree';

/** What a POST that ignores 409 (pause, resume, stdin/close) got back. */
export interface AcceptedTransition {
  readonly status: number;
  /** True when the provider answered 409 (not in a state that allows it). */
  readonly conflict: boolean;
}

export class CreateosApi {
  constructor(readonly http: CreateosHttpClient) {}

  async createSandbox(request: CreateSandboxRequest, options: CallOptions = {}): Promise<CreatedSandbox> {
    const body = {
      shape: request.shape,
      ingress_enabled: false,
      ...(request.rootfs === undefined ? {} : { rootfs: request.rootfs }),
      ...(request.region === undefined ? {} : { region: request.region }),
      ...(request.name === undefined ? {} : { name: request.name }),
    };
    const { data } = await this.http.json('POST', '/sandboxes', { ...options, body });
    return parseResource(CreatedSandboxSchema, data, 'id');
  }

  /** GET one sandbox; its `id` must be the one asked for and its `status` a string. */
  async getSandbox(sandboxId: string, options: CallOptions = {}): Promise<SandboxView> {
    const id = assertResourceId(sandboxId);
    const { data } = await this.http.json('GET', `/sandboxes/${id}`, options);
    const parsed = SandboxViewSchema.safeParse(data);
    if (!parsed.success || parsed.data.id !== id) throw new CreateosError('invalid_sandbox', messages.invalidSandbox);
    return parsed.data;
  }

  /** Every sandbox of the account (§10 paging); an unrecognised page is an error, never an empty list. */
  async listSandboxes(options: ListSandboxesOptions = {}): Promise<SandboxView[]> {
    const signal = options.signal ?? AbortSignal.timeout(this.http.config.timeoutMs);
    const cap = options.cap ?? DEFAULT_LIST_CAP;
    return this.pageAll('/sandboxes', signal, cap, options.status, (row) => parseResource(SandboxViewSchema, row, 'id'));
  }

  /** DELETE a sandbox. Returns false when it was already gone (404). */
  async deleteSandbox(sandboxId: string, options: CallOptions = {}): Promise<boolean> {
    const id = assertResourceId(sandboxId);
    const { status } = await this.http.json('DELETE', `/sandboxes/${id}`, { ...options, okStatuses: [404] });
    return status !== 404;
  }

  pauseSandbox(sandboxId: string, options: CallOptions = {}): Promise<AcceptedTransition> {
    return this.postIgnoringConflict(`/sandboxes/${assertResourceId(sandboxId)}/pause`, options);
  }

  resumeSandbox(sandboxId: string, options: CallOptions = {}): Promise<AcceptedTransition> {
    return this.postIgnoringConflict(`/sandboxes/${assertResourceId(sandboxId)}/resume`, options);
  }

  async exec(sandboxId: string, request: ExecRequest, options: CallOptions = {}): Promise<ExecResult> {
    const id = assertResourceId(sandboxId);
    const { data } = await this.http.json('POST', `/sandboxes/${id}/exec`, { ...options, body: { cmd: request.cmd, args: request.args } });
    return parseResource(ExecResultSchema, data);
  }

  async putFile(sandboxId: string, path: string, bytes: Uint8Array, options: CallOptions = {}): Promise<void> {
    const id = assertResourceId(sandboxId);
    await this.http.putBytes(`/sandboxes/${id}/files`, bytes, { ...options, query: { path } });
  }

  async getFile(sandboxId: string, path: string, options: CallOptions = {}): Promise<Buffer> {
    const id = assertResourceId(sandboxId);
    const bytes = await this.http.getBytes(`/sandboxes/${id}/files`, { ...options, query: { path } });
    if (bytes === undefined) throw invalidResponse();
    return bytes;
  }

  /**
   * POST /processes. Never retried: the caller decides what an unconfirmed creation means. A 2xx
   * with a valid `process_id` always yields the process (§4.3); its other fields are read leniently.
   */
  async createProcess(sandboxId: string, request: CreateProcessRequest, options: CallOptions = {}): Promise<ManagedProcess> {
    const id = assertResourceId(sandboxId);
    const body = { cmd: request.cmd, args: request.args, ...(request.cwd === undefined ? {} : { cwd: request.cwd }) };
    const { data } = await this.http.json('POST', `/sandboxes/${id}/processes`, { ...options, body });
    return parseManagedProcess(data);
  }

  async listProcesses(sandboxId: string, options: CallOptions = {}): Promise<ManagedProcess[]> {
    const id = assertResourceId(sandboxId);
    const signal = options.signal ?? AbortSignal.timeout(this.http.config.timeoutMs);
    return this.pageAll(`/sandboxes/${id}/processes`, signal, DEFAULT_LIST_CAP, undefined, parseManagedProcess, 'processes');
  }

  async getProcess(sandboxId: string, processId: string, options: CallOptions = {}): Promise<ManagedProcess> {
    const { data } = await this.http.json('GET', processPath(sandboxId, processId), options);
    return this.sameProcess(data, processId);
  }

  /** POST stdin/close; 409 (already closed or exited) is fine. */
  async closeStdin(sandboxId: string, processId: string, options: CallOptions = {}): Promise<AcceptedTransition> {
    return this.postIgnoringConflict(`${processPath(sandboxId, processId)}/stdin/close`, options);
  }

  /** DELETE a process tree with a grace period. Returns null when it was already gone (404). */
  async deleteProcess(sandboxId: string, processId: string, graceMs: number, options: CallOptions = {}): Promise<ManagedProcess | null> {
    const { status, data } = await this.http.json('DELETE', processPath(sandboxId, processId), {
      ...options,
      query: { grace_ms: graceMs },
      okStatuses: [404],
    });
    if (status === 404) return null;
    return this.sameProcess(data, processId);
  }

  /** GET /wait, repeated while the provider answers 408, within one deadline. */
  async waitProcess(
    sandboxId: string,
    processId: string,
    wait: { readonly scope: WaitScope; readonly timeoutMs: number },
    options: CallOptions = {},
  ): Promise<ManagedProcess> {
    const signal = options.signal ?? AbortSignal.timeout(this.http.config.timeoutMs);
    const path = `${processPath(sandboxId, processId)}/wait`;
    for (;;) {
      const { status, data } = await this.http.json('GET', path, {
        signal,
        query: { scope: wait.scope, timeout_ms: wait.timeoutMs },
        okStatuses: [408],
      });
      if (status !== 408) return this.sameProcess(data, processId);
    }
  }

  /** Opens `connect?after=N`; the caller interprets the status (see process-stream.ts). */
  connectOutput(
    sandboxId: string,
    processId: string,
    after: number,
    options: CallOptions & { readonly idleTimeoutMs?: number } = {},
  ): Promise<StreamResponse> {
    return this.http.openStream(`${processPath(sandboxId, processId)}/connect`, { ...options, query: { after } });
  }

  async whoami(options: CallOptions = {}): Promise<Whoami> {
    const { data } = await this.http.json('GET', '/whoami', options);
    return parseResource(WhoamiSchema, data);
  }

  private async postIgnoringConflict(path: string, options: CallOptions): Promise<AcceptedTransition> {
    const { status } = await this.http.json('POST', path, { ...options, okStatuses: [409] });
    return { status, conflict: status === 409 };
  }

  private sameProcess(data: unknown, processId: string): ManagedProcess {
    const process = parseManagedProcess(data);
    if (process.process_id !== processId) throw new CreateosError('invalid_id', messages.invalidResourceId);
    return process;
  }

  private async pageAll<T>(
    path: string,
    signal: AbortSignal,
    cap: number,
    status: string | undefined,
    parseRow: (row: unknown) => T,
    legacyKey?: string,
  ): Promise<T[]> {
    const rows: T[] = [];
    let offset = 0;
    while (rows.length < cap) {
      const limit = Math.min(cap - rows.length, LIST_PAGE_LIMIT);
      const { data } = await this.http.json('GET', path, { signal, query: { limit, offset, status }, allowArrayData: true });
      const page = parseListPage(data, legacyKey);
      for (const row of page.rows) {
        if (rows.length >= cap) break;
        rows.push(parseRow(row));
      }
      offset += page.rows.length;
      if (page.rows.length === 0 || page.total === undefined || offset >= page.total) break;
    }
    return rows;
  }
}

function processPath(sandboxId: string, processId: string): string {
  return `/sandboxes/${assertResourceId(sandboxId)}/processes/${assertResourceId(processId)}`;
}
