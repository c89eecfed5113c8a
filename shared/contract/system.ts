// Contract of the system domain: what the console is connected to.
import { oc } from '@orpc/contract';
import { z } from 'zod';

export const systemInfoSchema = z.object({
  version: z.string(),
  mode: z.enum(['browser', 'desktop']),
  /** Provider origin without credentials. */
  providerUrl: z.string(),
  providerKind: z.enum(['createos-local', 'createos']),
  apiKeySet: z.boolean(),
  queuedRequests: z.number().int().nonnegative(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;

export const systemContract = {
  info: oc.output(systemInfoSchema),
};
