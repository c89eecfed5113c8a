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

export const ProcessOutputInfoSchema = z.object({ oldest_seq: count, newest_seq: count, bytes: count.optional() });

export const MANAGED_PROCESS_STATES = ['starting', 'running', 'terminating', 'exited', 'failed'] as const;

/** ManagedProcess (§2). Field values beyond process_id and state are unconfirmed upstream (§10), so optional. */
export const ManagedProcessSchema = z.object({
  process_id: ResourceIdSchema,
  kind: z.string().optional(),
  pid: z.number().int().nullable().optional(),
  state: z.string(),
  leader_exited: z.boolean().optional(),
  tree_exited: z.boolean().optional(),
  exit_code: z.number().int().nullable().optional(),
  signal: z.string().nullable().optional(),
  output: ProcessOutputInfoSchema.optional(),
  created_at: z.string().optional(),
  finished_at: z.string().nullable().optional(),
});
export type ManagedProcess = z.infer<typeof ManagedProcessSchema>;

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
  if (idKey !== undefined) {
    const id = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[idKey] : undefined;
    if (!ResourceIdSchema.safeParse(id).success) throw invalidResourceId();
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw invalidResponse();
  return parsed.data;
}

export function assertResourceId(id: string): string {
  if (!RESOURCE_ID_PATTERN.test(id)) throw invalidResourceId();
  return id;
}
