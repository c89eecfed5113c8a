// Contract of settings: CreateOS environments. The API key goes in, never comes back out.
import { oc } from '@orpc/contract';
import { z } from 'zod';

export const environmentIdSchema = z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be 1 to 40 lowercase letters, digits or -');

export const environmentSchema = z.object({
  id: environmentIdSchema,
  name: z.string(),
  url: z.string(),
  kind: z.enum(['createos-local', 'createos']),
  /** Only whether a key is stored: the key itself never reaches the renderer. */
  apiKeySet: z.boolean(),
  active: z.boolean(),
});
export type Environment = z.infer<typeof environmentSchema>;

export const saveEnvironmentInputSchema = z.object({
  id: environmentIdSchema.optional(),
  name: z.string().trim().min(1, 'a name is required').max(80),
  url: z.string().trim().min(1, 'a URL is required').max(2000),
  apiKey: z.string().min(1).max(4096).refine((k) => !/[\r\n\0]/.test(k), 'must not contain CR, LF or NUL').optional(),
}).strict();

export const settingsContract = {
  environments: oc.output(z.array(environmentSchema)),
  saveEnvironment: oc.input(saveEnvironmentInputSchema).output(environmentSchema),
  removeEnvironment: oc.input(z.object({ id: environmentIdSchema }).strict()).output(z.object({ removed: z.boolean() })),
  testEnvironment: oc.input(z.object({ id: environmentIdSchema }).strict()).output(z.object({ ok: z.boolean(), message: z.string() })),
  activateEnvironment: oc.input(z.object({ id: environmentIdSchema }).strict()).output(environmentSchema),
};
