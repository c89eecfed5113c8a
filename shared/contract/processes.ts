// Contract of the processes domain: run a command, stop a process, follow its output.
import { eventIterator, oc } from '@orpc/contract';
import { z } from 'zod';
import { leaseIdSchema, processIdSchema } from '../domain/lease';
import { tailEntrySchema } from '../domain/tail';

export const runCommandInputSchema = z.object({
  leaseId: leaseIdSchema,
  command: z.string().min(1, 'a command is required').max(100_000).refine((c) => !c.includes('\0'), 'must not contain NUL'),
  timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  stdin: z.string().max(10_000_000).optional(),
}).strict();

export const processRefSchema = z.object({ leaseId: leaseIdSchema, processId: processIdSchema }).strict();

export const tailEventSchema = z.discriminatedUnion('type', [
  /** What the host holds already, then live entries. */
  z.object({ type: z.literal('replay'), processId: processIdSchema, entries: z.array(tailEntrySchema) }),
  z.object({ type: z.literal('entries'), processId: processIdSchema, entries: z.array(tailEntrySchema) }),
]);
export type TailEvent = z.infer<typeof tailEventSchema>;

export const processesContract = {
  run: oc.input(runCommandInputSchema).output(z.object({ runId: z.string() })),
  stop: oc.input(processRefSchema).output(z.object({ treeExited: z.boolean() })),
  tail: oc.input(processRefSchema).output(eventIterator(tailEventSchema)),
};
