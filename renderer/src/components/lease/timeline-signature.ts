// The parts of a lease whose change means its timeline has news (not every byte of output).
import type { Lease } from '../../../../shared/domain';

export function timelineSignature(lease: Lease): string {
  const processes = lease.processes.map((p) => `${p.processId}:${p.state}:${p.stream.reconnects}:${String(p.treeExited)}`).join(',');
  return [lease.status, lease.guard, lease.verdict.status, lease.verdict.reasons.length, lease.destroy?.state ?? '', lease.destroy?.attempts ?? 0, lease.gone, processes].join('|');
}
