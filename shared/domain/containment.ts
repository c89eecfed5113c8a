// Containment verdicts are derived from evidence, never set by hand. Fail closed: anything the
// console cannot prove makes the lease "unproven" until a proven tree exit or a confirmed destroy.
import { z } from 'zod';

export const evidenceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('process-started'), at: z.number(), processId: z.string() }),
  /** The provider said the whole process tree is gone (tree_exited === true). */
  z.object({ kind: z.literal('tree-exit-proven'), at: z.number(), processId: z.string(), call: z.string() }),
  /** Something about a process could not be proven: tree_exited !== true, cleanup failed, stream ended without exit. */
  z.object({ kind: z.literal('process-unproven'), at: z.number(), processId: z.string(), reason: z.string(), call: z.string(), reply: z.string() }),
  /** A problem with no process to pin it on (e.g. creation could not be confirmed): only a destroy clears it. */
  z.object({ kind: z.literal('lease-unproven'), at: z.number(), reason: z.string(), call: z.string(), reply: z.string() }),
  z.object({ kind: z.literal('destroy-started'), at: z.number() }),
  z.object({ kind: z.literal('destroy-failed'), at: z.number(), reason: z.string(), call: z.string(), reply: z.string() }),
  /** DELETE answered, then GET answered 404 or `destroyed`. */
  z.object({ kind: z.literal('destroy-confirmed'), at: z.number(), proof: z.string() }),
]);
export type Evidence = z.infer<typeof evidenceSchema>;

export const verdictStatuses = ['contained', 'active', 'pending', 'unproven'] as const;
export const unprovenReasonSchema = z.object({
  reason: z.string(),
  call: z.string(),
  reply: z.string(),
  at: z.number(),
  processId: z.string().nullable(),
});
export type UnprovenReason = z.infer<typeof unprovenReasonSchema>;

export const containmentVerdictSchema = z.object({
  /**
   * contained: no process tree is running and every one that ran is proven gone (or the sandbox is confirmed destroyed).
   * active: processes are running under the console's watch; nothing unproven.
   * pending: nothing is unproven yet, but proof is awaited: a destroy is in flight, or a process
   *   that ran has stopped and the proof that its whole tree is gone has not arrived.
   * unproven: the console cannot prove a process tree is dead.
   */
  status: z.enum(verdictStatuses),
  reasons: z.array(unprovenReasonSchema),
  since: z.number().nullable(),
});
export type ContainmentVerdict = z.infer<typeof containmentVerdictSchema>;

/**
 * Derives a lease's verdict from its evidence, in order.
 * `runningProcessIds` are processes the provider reports as still running (not yet evidence of anything wrong).
 */
export function deriveVerdict(evidence: readonly Evidence[], runningProcessIds: readonly string[] = []): ContainmentVerdict {
  const openByProcess = new Map<string, UnprovenReason>();
  /** Processes that ran and whose tree has not been proven gone. */
  const awaitingProof = new Set<string>();
  const leaseReasons: UnprovenReason[] = [];
  let destroyInFlight = false;
  let destroyFailure: UnprovenReason | null = null;
  /** When the sandbox was last confirmed gone; later evidence (it was listed again) still counts. */
  let confirmedGoneAt: number | null = null;

  for (const item of evidence) {
    switch (item.kind) {
      case 'process-started':
        awaitingProof.add(item.processId);
        break;
      case 'tree-exit-proven':
        openByProcess.delete(item.processId);
        awaitingProof.delete(item.processId);
        break;
      case 'process-unproven':
        if (!openByProcess.has(item.processId)) {
          openByProcess.set(item.processId, { reason: item.reason, call: item.call, reply: item.reply, at: item.at, processId: item.processId });
        }
        break;
      case 'lease-unproven':
        leaseReasons.push({ reason: item.reason, call: item.call, reply: item.reply, at: item.at, processId: null });
        break;
      case 'destroy-started':
        destroyInFlight = true;
        destroyFailure = null;
        break;
      case 'destroy-failed':
        destroyInFlight = false;
        destroyFailure = { reason: item.reason, call: item.call, reply: item.reply, at: item.at, processId: null };
        break;
      case 'destroy-confirmed':
        // Everything before is settled by the proof; evidence after it (say, the sandbox is listed
        // again) is judged afresh.
        openByProcess.clear();
        leaseReasons.length = 0;
        awaitingProof.clear();
        destroyInFlight = false;
        destroyFailure = null;
        confirmedGoneAt = item.at;
        break;
    }
  }

  const reasons = [...leaseReasons, ...openByProcess.values()];
  if (destroyFailure && (reasons.length > 0 || runningProcessIds.length > 0)) reasons.push(destroyFailure);
  if (reasons.length > 0) {
    reasons.sort((a, b) => a.at - b.at);
    return { status: 'unproven', reasons, since: reasons[0]?.at ?? null };
  }
  if (destroyInFlight) return { status: 'pending', reasons: [], since: null };
  if (runningProcessIds.length > 0) return { status: 'active', reasons: [], since: null };
  if (awaitingProof.size > 0) return { status: 'pending', reasons: [], since: null };
  return { status: 'contained', reasons: [], since: confirmedGoneAt };
}
