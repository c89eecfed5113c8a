// A lease's timeline: what happened to it, in order, for the lease view and incident exports.
import { z } from 'zod';

export const timelineKinds = ['state', 'evidence', 'operator', 'stream', 'error'] as const;

export const timelineEntrySchema = z.object({
  at: z.number(),
  kind: z.enum(timelineKinds),
  summary: z.string(),
  detail: z.string().nullable(),
  actor: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
