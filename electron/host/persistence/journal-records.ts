// The shapes of the host's journal records. Each is parsed with zod when read back at start.
import { z } from 'zod';
import {
  destroyProgressSchema, evidenceSchema, guardStateSchema, processInfoSchema, tailEntrySchema, timelineEntrySchema,
} from '../../../shared/domain';

export const sandboxFactsSchema = z.object({
  id: z.string(),
  status: z.string(),
  name: z.string().optional(),
  shape: z.string().optional(),
  created_at: z.string().optional(),
});

export const leaseStateDataSchema = z.object({
  sandbox: sandboxFactsSchema,
  destroy: destroyProgressSchema.nullable(),
  gone: z.boolean(),
  guard: guardStateSchema,
  marker: z.string().nullable().default(null),
  /**
   * The guard's unconfirmed-cleanup mark, kept apart from `guard` (which shows `closing` while a
   * destroy runs, hiding the mark). Absent in older journals: then rebuilt from the guard states.
   */
  unconfirmed: z.boolean().optional(),
});
export type LeaseStateData = z.infer<typeof leaseStateDataSchema>;

export const tailEntriesDataSchema = z.object({ processId: z.string(), entries: z.array(tailEntrySchema) });

export const leaseSnapshotDataSchema = z.object({
  state: leaseStateDataSchema,
  evidence: z.array(evidenceSchema),
  timeline: z.array(timelineEntrySchema),
  processes: z.array(processInfoSchema),
  tails: z.array(tailEntriesDataSchema),
});

export type LeaseSnapshotData = z.infer<typeof leaseSnapshotDataSchema>;

/** What the journal's own `journal.dropped` record says: appends lost while its write buffer was full. */
export const droppedMarkerSchema = z.object({
  records: z.number(),
  bytes: z.number(),
  from: z.number(),
  to: z.number(),
});
export type DroppedMarker = z.infer<typeof droppedMarkerSchema>;

export const recordTypes = {
  state: 'lease.state',
  evidence: 'lease.evidence',
  timeline: 'lease.timeline',
  process: 'lease.process',
  tail: 'tail.entries',
  cleared: 'lease.cleared',
  snapshot: 'lease.snapshot',
} as const;

export const recordDataSchemas = {
  [recordTypes.state]: leaseStateDataSchema,
  [recordTypes.evidence]: evidenceSchema,
  [recordTypes.timeline]: timelineEntrySchema,
  [recordTypes.process]: processInfoSchema,
  [recordTypes.tail]: tailEntriesDataSchema,
  [recordTypes.cleared]: z.null(),
  [recordTypes.snapshot]: leaseSnapshotDataSchema,
} as const;
