// Contract of the leases domain: list, watch, create, destroy.
import { eventIterator, oc } from '@orpc/contract';
import { z } from 'zod';
import { leaseIdSchema, leaseSchema } from '../domain/lease';
import { timelineEntrySchema } from '../domain/timeline';

export const leaseEventSchema = z.discriminatedUnion('type', [
  /** First event of every watch: the whole current picture. */
  z.object({ type: z.literal('snapshot'), leases: z.array(leaseSchema) }),
  z.object({ type: z.literal('upsert'), lease: leaseSchema }),
  z.object({ type: z.literal('removed'), leaseId: leaseIdSchema }),
]);
export type LeaseEvent = z.infer<typeof leaseEventSchema>;

export const createLeaseInputSchema = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  shape: z.string().min(1).max(100).optional(),
}).strict();

export const destroyLeaseInputSchema = z.object({
  leaseId: leaseIdSchema,
  reason: z.string().trim().min(1, 'a reason is required').max(500),
}).strict();

export const destroyManyInputSchema = z.object({
  leaseIds: z.array(leaseIdSchema).min(1, 'select at least one lease').max(5000),
  reason: z.string().trim().min(1, 'a reason is required').max(500),
}).strict();

export const destroyManyResultSchema = z.object({
  results: z.array(z.object({ leaseId: leaseIdSchema, ok: z.boolean(), message: z.string().nullable() })),
});

export const leasesContract = {
  list: oc.output(z.array(leaseSchema)),
  get: oc.input(z.object({ leaseId: leaseIdSchema }).strict()).output(leaseSchema),
  create: oc.input(createLeaseInputSchema).output(leaseSchema),
  destroy: oc.input(destroyLeaseInputSchema).output(leaseSchema),
  pause: oc.input(z.object({ leaseId: leaseIdSchema }).strict()).output(leaseSchema),
  /** Resumes a paused lease after checking its workspace marker; an expired lease is not resumed. */
  resume: oc.input(z.object({ leaseId: leaseIdSchema }).strict()).output(z.object({ lease: leaseSchema, resumed: z.boolean(), expired: z.string().nullable() })),
  destroyMany: oc.input(destroyManyInputSchema).output(destroyManyResultSchema),
  /** Forgets a destroyed lease and its kept output (operator's choice). */
  clear: oc.input(z.object({ leaseId: leaseIdSchema }).strict()).output(z.object({ cleared: z.boolean() })),
  timeline: oc.input(z.object({ leaseId: leaseIdSchema }).strict()).output(z.array(timelineEntrySchema)),
  refresh: oc.output(z.object({ leases: z.number().int() })),
  watch: oc.output(eventIterator(leaseEventSchema)),
};
