// After a leader exits, is its whole tree gone? Asks the provider and records the answer as evidence.
import type { CreateosApi } from '../createos/api';
import type { LeaseStore } from '../state/lease-store';

/** While a lease is being destroyed (or is gone) its processes dying is expected, not evidence. */
export function beingDestroyed(store: LeaseStore, leaseId: string): boolean {
  if (!store.has(leaseId)) return true;
  const record = store.record(leaseId);
  return record.gone || record.destroy?.state === 'destroying';
}

export async function recordTreeOutcome(api: CreateosApi, store: LeaseStore, leaseId: string, processId: string, now: () => number = Date.now): Promise<void> {
  const call = `GET /v1/sandboxes/${leaseId}/processes/${processId}/wait?scope=tree&timeout_ms=2000`;
  try {
    const facts = await api.waitProcess(leaseId, processId, { scope: 'tree', timeoutMs: 2000 }, { signal: AbortSignal.timeout(10_000) });
    if (beingDestroyed(store, leaseId)) return;
    store.update(leaseId, (record) => {
      record.upsertProcess(leaseId, facts);
      if (facts.tree_exited === true) {
        record.addEvidence({ kind: 'tree-exit-proven', at: now(), processId, call });
      } else {
        record.addEvidence({ kind: 'process-unproven', at: now(), processId, reason: 'The process leader exited but its process tree did not.', call, reply: `tree_exited=${String(facts.tree_exited)}` });
      }
    });
  } catch (error) {
    if (beingDestroyed(store, leaseId)) return;
    const reply = error instanceof Error ? error.message : 'no answer';
    store.update(leaseId, (record) => {
      record.addEvidence({ kind: 'process-unproven', at: now(), processId, reason: 'The process leader exited; whether its tree exited could not be confirmed.', call, reply });
    });
  }
}
