// What the journal stores: one timestamped, typed record. Validated with zod whenever it is read back.
import { z } from 'zod';

export const journalRecordSchema = z.object({
  /** Milliseconds since the epoch. */
  t: z.number(),
  type: z.string().min(1),
  leaseId: z.string().exactOptional(),
  data: z.unknown(),
});

export interface JournalRecord {
  t: number;
  type: string;
  leaseId?: string;
  data: unknown;
}

/**
 * Record types the journal writes for itself. `journal.base` opens a compacted segment and is
 * never replayed; `journal.dropped` tells the reader, in the journal itself, that appends were lost.
 */
export const BASE_RECORD_TYPE = 'journal.base';
export const DROPPED_RECORD_TYPE = 'journal.dropped';

export function isReservedType(type: string): boolean {
  return type === BASE_RECORD_TYPE;
}

/** Parses a record read back from disk; `null` when it is not a journal record. */
export function parseRecord(value: unknown): JournalRecord | null {
  const parsed = journalRecordSchema.safeParse(value);
  if (!parsed.success) return null;
  const { t, type, leaseId, data } = parsed.data;
  return leaseId === undefined ? { t, type, data } : { t, type, leaseId, data };
}
