// zod schemas for every provider payload the client reads (§2, §10). Payloads arrive as `unknown`.
import { z } from 'zod';
import { CreateosError, messages } from './errors';

export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
export const ResourceIdSchema = z.string().regex(RESOURCE_ID_PATTERN);

const count = z.number().int().nonnegative();

/** GET /sandboxes/:id and list rows. Keys the docs call optional are absent, never null. */
export const SandboxViewSchema = z.object({
  id: ResourceIdSchema,
  status: z.string(),
  vcpu: z.number().optional(),
  mem_mib: z.number().optional(),
  disk_mib: z.number().optional(),
  created_at: z.string().optional(),
  ingress_enabled: z.boolean().optional(),
  ip: z.string().optional(),
  name: z.string().optional(),
  shape: z.string().optional(),
  rootfs: z.string().optional(),
  region: z.string().optional(),
  ingress_url_template: z.string().optional(),
  running_at: z.string().optional(),
  paused_at: z.string().optional(),
  last_resumed_at: z.string().optional(),
  destroyed_at: z.string().optional(),
  spawn_ms: z.number().optional(),
  egress: z.unknown().optional(),
  envs: z.array(z.string()).optional(),
  ssh_pubkeys: z.unknown().optional(),
  created_by: z.string().optional(),
  bandwidth_ingress_bytes: z.number().optional(),
  forked_from: z.string().optional(),
  auto_pause_after_seconds: z.number().optional(),
});
export type SandboxView = z.infer<typeof SandboxViewSchema>;

export const SANDBOX_STATUSES = [
  'creating', 'running', 'pausing', 'paused', 'resuming', 'forking', 'error', 'destroying', 'destroyed', 'failed',
] as const;
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];

/** POST /sandboxes answers with at least the new id. */
export const CreatedSandboxSchema = z.object({ id: ResourceIdSchema, status: z.string().optional() });
export type CreatedSandbox = z.infer<typeof CreatedSandboxSchema>;

/** A field §10 calls unconfirmed: a missing or malformed value reads as undefined, never as a failure. */
function lenient<T extends z.ZodType>(schema: T): z.ZodCatch<z.ZodOptional<T>> {
  return schema.optional().catch(undefined);
}

/** Each seq is read on its own: a missing or malformed one is undefined (callers then fail closed). */
export const ProcessOutputInfoSchema = z.object({ oldest_seq: lenient(count), newest_seq: lenient(count), bytes: lenient(count) });

export const MANAGED_PROCESS_STATES = ['starting', 'running', 'terminating', 'exited', 'failed'] as const;
/** What a missing or malformed `state` reads as; not one of MANAGED_PROCESS_STATES, so nothing treats it as exited. */
export const UNKNOWN_PROCESS_STATE = 'unknown';

/**
 * ManagedProcess (§2). Only `process_id` is checked strictly (§4.3); every other field is unconfirmed
 * upstream (§10) and read leniently. `tree_exited` is true only when the provider sent literally `true`.
 */
export const ManagedProcessSchema = z.object({
  process_id: ResourceIdSchema,
  kind: lenient(z.string()),
  pid: lenient(z.number().int().nullable()),
  state: z.string().catch(UNKNOWN_PROCESS_STATE),
  leader_exited: lenient(z.boolean()),
  tree_exited: lenient(z.boolean()),
  exit_code: lenient(z.number().int().nullable()),
  signal: lenient(z.string().nullable()),
  output: lenient(ProcessOutputInfoSchema),
  created_at: lenient(z.string()),
  finished_at: lenient(z.string().nullable()),
});
export type ManagedProcess = z.infer<typeof ManagedProcessSchema>;

/**
 * Reads a ManagedProcess: a valid `process_id` first (else "invalid resource ID"), then the rest
 * leniently. Once the id is valid the process is never thrown away, so the caller can still clean it up.
 */
export function parseManagedProcess(data: unknown): ManagedProcess {
  const id = ResourceIdSchema.safeParse(idOf(data, 'process_id'));
  if (!id.success) throw invalidResourceId();
  const parsed = ManagedProcessSchema.safeParse(data);
  return parsed.success ? parsed.data : { process_id: id.data, state: UNKNOWN_PROCESS_STATE };
}

export const ExecResultSchema = z.object({
  result: z.object({
    exit_code: z.number().int().nullable(),
    stdout: z.string(),
    stderr: z.string(),
  }),
  exec_ms: z.number().optional(),
});
export type ExecResult = z.infer<typeof ExecResultSchema>;

export const WhoamiSchema = z.object({
  user_id: z.string(),
  stats: z.object({ running: count, paused: count, other: count, total: count }),
});
export type Whoami = z.infer<typeof WhoamiSchema>;

/** A list page: `{data:[…], pagination:{total,limit,offset,count}}`, `{<key>:[…]}` or a bare array. */
const PaginationSchema = z.object({ total: count.optional(), limit: count.optional(), offset: count.optional(), count: count.optional() });
export interface ListPage {
  readonly rows: readonly unknown[];
  readonly total: number | undefined;
}

export function parseListPage(data: unknown, legacyKey?: string): ListPage {
  if (Array.isArray(data)) return { rows: data, total: undefined };
  if (typeof data === 'object' && data !== null) {
    const record = data as Record<string, unknown>;
    const rows = record['data'] ?? (legacyKey === undefined ? undefined : record[legacyKey]);
    if (Array.isArray(rows)) {
      const pagination = record['pagination'] === undefined ? undefined : PaginationSchema.safeParse(record['pagination']);
      if (pagination !== undefined && !pagination.success) throw invalidResponse();
      return { rows, total: pagination?.data.total };
    }
  }
  throw invalidResponse();
}

export function invalidResponse(): CreateosError {
  return new CreateosError('invalid_response', messages.invalidResponse);
}

export function invalidResourceId(): CreateosError {
  return new CreateosError('invalid_id', messages.invalidResourceId);
}

/** Parses `data` with `schema`; a bad identifier gives "invalid resource ID", anything else "invalid response". */
export function parseResource<T>(schema: z.ZodType<T>, data: unknown, idKey?: string): T {
  if (idKey !== undefined && !ResourceIdSchema.safeParse(idOf(data, idKey)).success) throw invalidResourceId();
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw invalidResponse();
  return parsed.data;
}

function idOf(data: unknown, idKey: string): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[idKey] : undefined;
}

/** Checks an id the caller gave before it goes into a path: a bad one means no request was sent. */
export function assertResourceId(id: string): string {
  if (!RESOURCE_ID_PATTERN.test(id)) throw new CreateosError('invalid_id', messages.invalidResourceId, { requestSent: false });
  return id;
}
