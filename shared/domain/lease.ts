// What a lease is, as the console sees it. Pure data: no Node or DOM APIs.
import { z } from 'zod';
import { containmentVerdictSchema } from './containment';

/** CreateOS sandbox statuses, plus `unknown` for a status string the console does not recognise. */
export const sandboxStatuses = [
  'creating', 'running', 'pausing', 'paused', 'resuming', 'forking',
  'error', 'destroying', 'destroyed', 'failed', 'unknown',
] as const;
export const sandboxStatusSchema = z.enum(sandboxStatuses);
export type SandboxStatus = z.infer<typeof sandboxStatusSchema>;

/** Lifecycle-guard state of a lease (spec §5): what the host allows next. */
export const guardStates = ['idle', 'busy', 'closing', 'unconfirmedCleanup'] as const;
export const guardStateSchema = z.enum(guardStates);
export type GuardState = z.infer<typeof guardStateSchema>;

export const leaseIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be a CreateOS id (letters, digits, _ or -, 1 to 200 characters)');
export const processIdSchema = leaseIdSchema;

export const processStates = ['starting', 'running', 'terminating', 'exited', 'failed', 'unknown'] as const;

export const streamHealthSchema = z.object({
  /** How often the output stream had to reconnect, never reset. */
  reconnects: z.number().int().nonnegative(),
  /** Bytes the console knows it never received (evicted before read, or truncated). */
  lostBytes: z.number().int().nonnegative(),
  bytesReceived: z.number().int().nonnegative(),
  attached: z.boolean(),
  /** Why the stream stopped without an exit status, when it did. */
  endedWithoutExit: z.string().nullable(),
});
export type StreamHealth = z.infer<typeof streamHealthSchema>;

export const processInfoSchema = z.object({
  processId: processIdSchema,
  leaseId: leaseIdSchema,
  command: z.string().nullable(),
  state: z.enum(processStates),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  leaderExited: z.boolean().nullable(),
  treeExited: z.boolean().nullable(),
  startedByConsole: z.boolean(),
  createdAt: z.string().nullable(),
  lastOutputAt: z.number().nullable(),
  stream: streamHealthSchema,
});
export type ProcessInfo = z.infer<typeof processInfoSchema>;

export const destroyProgressSchema = z.object({
  state: z.enum(['destroying', 'destroyed', 'failed']),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  attempts: z.number().int().nonnegative(),
  reason: z.string(),
  requestedBy: z.string(),
  /** Proof of destruction: what the provider answered when asked after the delete. */
  proof: z.string().nullable(),
  error: z.string().nullable(),
});
export type DestroyProgress = z.infer<typeof destroyProgressSchema>;

export const leaseSchema = z.object({
  id: leaseIdSchema,
  name: z.string().nullable(),
  status: sandboxStatusSchema,
  rawStatus: z.string(),
  shape: z.string().nullable(),
  createdAt: z.string().nullable(),
  guard: guardStateSchema,
  verdict: containmentVerdictSchema,
  processes: z.array(processInfoSchema),
  reconnects: z.number().int().nonnegative(),
  lastOutputAt: z.number().nullable(),
  destroy: destroyProgressSchema.nullable(),
  /** True once the provider has confirmed the sandbox is gone; the console keeps the record. */
  gone: z.boolean(),
});
export type Lease = z.infer<typeof leaseSchema>;

export function toSandboxStatus(raw: string): SandboxStatus {
  const known = sandboxStatusSchema.safeParse(raw);
  return known.success ? known.data : 'unknown';
}
