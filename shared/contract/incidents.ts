// Contract of incident exports: preview what will be redacted, then export.
import { oc } from '@orpc/contract';
import { z } from 'zod';
import { leaseIdSchema } from '../domain/lease';

export const incidentScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lease'), leaseId: leaseIdSchema }).strict(),
  z.object({ kind: z.literal('window'), from: z.number().int().nonnegative(), to: z.number().int().nonnegative() }).strict()
    .refine((w) => w.from <= w.to, { message: 'from must not be after to', path: ['from'] }),
]);
export type IncidentScope = z.infer<typeof incidentScopeSchema>;

export const redactionPreviewSchema = z.object({
  leases: z.number().int().nonnegative(),
  redactions: z.array(z.object({ kind: z.string(), count: z.number().int().nonnegative(), samples: z.array(z.string()) })),
});
export type RedactionPreview = z.infer<typeof redactionPreviewSchema>;

export const incidentFileSchema = z.object({
  fileName: z.string(),
  mimeType: z.enum(['application/json', 'text/html']),
  content: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type IncidentFile = z.infer<typeof incidentFileSchema>;

export const incidentsContract = {
  preview: oc.input(z.object({ scope: incidentScopeSchema }).strict()).output(redactionPreviewSchema),
  export: oc.input(z.object({ scope: incidentScopeSchema, format: z.enum(['json', 'html']) }).strict()).output(incidentFileSchema),
};
