// A lease's timeline: what happened to it, in order, for the lease view and incident exports.
import { z } from 'zod';

/**
 * Evidence lands as one of three kinds: `proof` (something is contained or gone), `unproven` (it
 * could not be proven, or a destroy failed) and `evidence` (activity: a process started, a destroy began).
 */
export const timelineKinds = ['state', 'evidence', 'proof', 'unproven', 'operator', 'stream', 'error'] as const;

export const timelineEntrySchema = z.object({
  at: z.number(),
  kind: z.enum(timelineKinds),
  summary: z.string(),
  detail: z.string().nullable(),
  actor: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
