// What the host hands to the incident export: everything it knows about the leases in scope.
import { z } from 'zod';
import { evidenceSchema, leaseIdSchema, leaseSchema, processIdSchema, tailEntrySchema } from '../../../shared/domain';

/** Milliseconds since the epoch, within what a Date can represent. */
const epochMs = z.number().min(-8.64e15).max(8.64e15);

export const incidentScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lease'), leaseId: leaseIdSchema }),
  /** Milliseconds since the epoch, inclusive. */
  z.object({ kind: z.literal('window'), from: epochMs, to: epochMs }),
]);
export type IncidentScope = z.infer<typeof incidentScopeSchema>;

/** Accepts the shared domain's TimelineEntry (detail and actor nullable) as well as the bare `{at, kind, summary, detail?}`. */
export const timelineEntrySchema = z.object({
  at: z.number(),
  /** e.g. `state`, `evidence`, `operator`, `stream`, `error`. */
  kind: z.string(),
  summary: z.string(),
  detail: z.string().nullable().exactOptional(),
  actor: z.string().nullable().exactOptional(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const reconnectEventSchema = z.object({
  at: z.number(),
  processId: processIdSchema.nullable(),
  /** The stream's reconnect count after this reconnect. */
  count: z.number().int().nonnegative(),
  reason: z.string(),
});
export type ReconnectEvent = z.infer<typeof reconnectEventSchema>;

export const processTailSchema = z.object({
  processId: processIdSchema,
  entries: z.array(tailEntrySchema),
});
export type ProcessTail = z.infer<typeof processTailSchema>;

export const operatorActionSchema = z.object({
  at: z.number(),
  actor: z.string(),
  action: z.string(),
  leaseId: leaseIdSchema.nullable(),
  reason: z.string(),
});
export type OperatorAction = z.infer<typeof operatorActionSchema>;

/** One lease and everything recorded about it. */
export const leaseRecordSchema = z.object({
  lease: leaseSchema,
  timeline: z.array(timelineEntrySchema),
  /** The evidence the lease's verdict was derived from, in order. */
  evidence: z.array(evidenceSchema),
  reconnects: z.array(reconnectEventSchema),
  tails: z.array(processTailSchema),
});
export type LeaseRecord = z.infer<typeof leaseRecordSchema>;

export const environmentSchema = z.object({
  appVersion: z.string(),
  nodeVersion: z.string(),
  platform: z.string(),
  /** As configured; the export strips credentials, query and fragment. */
  providerUrl: z.string(),
});
export type IncidentEnvironment = z.infer<typeof environmentSchema>;

export const incidentInputSchema = z.object({
  scope: incidentScopeSchema,
  /** Milliseconds since the epoch; the export never reads the clock. */
  generatedAt: epochMs,
  environment: environmentSchema,
  leases: z.array(leaseRecordSchema),
  operatorActions: z.array(operatorActionSchema),
});
export type IncidentInput = z.infer<typeof incidentInputSchema>;
