// Output tails: what the console shows of a process's output. Losses are always explicit markers.
import { z } from 'zod';

export const outputStreamNameSchema = z.enum(['stdout', 'stderr']);
export type OutputStreamName = z.infer<typeof outputStreamNameSchema>;

export const tailEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), stream: outputStreamNameSchema, text: z.string(), seq: z.number().int(), at: z.number() }),
  /** Output the console will never see: evicted before it was read, or a stream that broke. */
  z.object({ kind: z.literal('gap'), lostBytes: z.number().int().nonnegative().nullable(), reason: z.string(), at: z.number() }),
  /** The console dropped the oldest part of its own bounded tail. */
  z.object({ kind: z.literal('truncated'), droppedBytes: z.number().int().nonnegative(), at: z.number() }),
  z.object({ kind: z.literal('reconnect'), count: z.number().int().nonnegative(), reason: z.string(), at: z.number() }),
  z.object({ kind: z.literal('exit'), exitCode: z.number().int().nullable(), signal: z.string().nullable(), at: z.number() }),
]);
export type TailEntry = z.infer<typeof tailEntrySchema>;

export function describeGap(lostBytes: number | null, reason: string): string {
  return lostBytes === null ? `bytes lost: ${reason}` : `${lostBytes} bytes lost: ${reason}`;
}
