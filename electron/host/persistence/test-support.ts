// Helpers shared by the lease journal tests (not a test file itself): one "run" of the console is
// a lease journal opened on a directory, replayed into a fresh store, then closed.
import type { CompactionResult } from '../journal';
import { LifecycleGuard } from '../lifecycle/lifecycle-guard';
import { LeaseStore } from '../state/lease-store';
import { LeaseJournal, type LeaseJournalOptions, type RestoreReport } from './lease-journal';

export interface Run {
  journal: LeaseJournal;
  store: LeaseStore;
  report: RestoreReport;
  problems: string[];
}

export async function startRun(dir: string, options: Omit<LeaseJournalOptions, 'onProblem'> = {}): Promise<Run> {
  const problems: string[] = [];
  const journal = await LeaseJournal.open(dir, { ...options, onProblem: (problem) => problems.push(problem) });
  const store = new LeaseStore({ persistence: journal });
  const report = await journal.restoreInto(store);
  return { journal, store, report, problems };
}

/** Everything appended so far is on disk, then the run ends (as a SIGKILL after the last flush would leave it). */
export async function stopRun(run: Run): Promise<void> {
  await run.journal.flush();
  await run.journal.dispose();
}

/** A lifecycle guard wired to the store as the session wires it. */
export function guardFor(store: LeaseStore): LifecycleGuard {
  const guard: LifecycleGuard = new LifecycleGuard((leaseId) => {
    if (store.has(leaseId)) store.update(leaseId, (record) => { record.guard = guard.state(leaseId); });
  });
  return guard;
}

/** A promise settled by the first compaction, and the hook to pass as `onCompacted`. */
export function compactionWatch(): { onCompacted: (result: CompactionResult) => void; done: Promise<CompactionResult> } {
  let settle: (result: CompactionResult) => void = () => undefined;
  const done = new Promise<CompactionResult>((resolve) => {
    settle = resolve;
  });
  return { onCompacted: (result) => settle(result), done };
}

/** A timeline note with a detail of `size` characters (to grow the journal). */
export function bulkyNote(at: number, size: number): { at: number; kind: 'operator'; summary: string; detail: string; actor: string } {
  return { at, kind: 'operator', summary: `note ${at}`, detail: 'x'.repeat(size), actor: 'test' };
}
