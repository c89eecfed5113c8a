export { Journal, type JournalOptions, type JournalStats } from './journal';
export { journalRecordSchema, DROPPED_RECORD_TYPE, type JournalRecord } from './record';
export type { CompactionPlan, CompactionResult, KeepRecord } from './compaction';
export type { RecoveryReport } from './recovery';
export { JournalLockedError } from './lock';
