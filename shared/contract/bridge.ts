// The desktop bridge: what the preload exposes (one frozen object, `invoke` and `subscribe`) and
// the IPC messages behind it. Both sides parse these messages; nothing crosses unchecked.
import { z } from 'zod';

export const ipcChannels = {
  invoke: 'leasewatch:invoke',
  subscribe: 'leasewatch:subscribe',
  unsubscribe: 'leasewatch:unsubscribe',
  stream: 'leasewatch:stream',
} as const;

export const bridgeErrorSchema = z.object({
  defined: z.boolean(),
  code: z.string(),
  status: z.number(),
  message: z.string(),
  data: z.unknown(),
});
export type BridgeError = z.infer<typeof bridgeErrorSchema>;

export const bridgeResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: bridgeErrorSchema }),
]);
export type BridgeResult = z.infer<typeof bridgeResultSchema>;

export const bridgeStreamMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('event'), value: z.unknown() }),
  z.object({ type: z.literal('error'), error: bridgeErrorSchema }),
  z.object({ type: z.literal('end') }),
]);
export type BridgeStreamMessage = z.infer<typeof bridgeStreamMessageSchema>;

export const subscriptionIdSchema = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);

export interface LeasewatchBridge {
  invoke(channel: string, input: unknown): Promise<BridgeResult>;
  subscribe(channel: string, input: unknown, listener: (message: BridgeStreamMessage) => void): () => void;
}

/** The name of the one global the preload exposes. */
export const bridgeGlobalName = 'leasewatch';
