// One line per piece of evidence, for the timeline and exports.
import type { Evidence } from '../../../shared/domain';

/** The timeline kind of a piece of evidence: proof, a failure to prove, or plain activity. */
export function evidenceKind(item: Evidence): 'proof' | 'unproven' | 'evidence' {
  switch (item.kind) {
    case 'tree-exit-proven':
    case 'destroy-confirmed':
      return 'proof';
    case 'process-unproven':
    case 'lease-unproven':
    case 'destroy-failed':
      return 'unproven';
    case 'process-started':
    case 'destroy-started':
      return 'evidence';
  }
}

export function describeEvidence(item: Evidence): { summary: string; detail: string | null } {
  switch (item.kind) {
    case 'process-started':
      return { summary: `Process ${item.processId} started`, detail: null };
    case 'tree-exit-proven':
      return { summary: `Process tree of ${item.processId} proven exited`, detail: item.call };
    case 'process-unproven':
      return { summary: `Containment unproven for ${item.processId}: ${item.reason}`, detail: `${item.call} → ${item.reply}` };
    case 'lease-unproven':
      return { summary: `Containment unproven: ${item.reason}`, detail: `${item.call} → ${item.reply}` };
    case 'destroy-started':
      return { summary: 'Destroy started', detail: null };
    case 'destroy-failed':
      return { summary: `Destroy failed: ${item.reason}`, detail: `${item.call} → ${item.reply}` };
    case 'destroy-confirmed':
      return { summary: 'Destroy confirmed', detail: item.proof };
  }
}
