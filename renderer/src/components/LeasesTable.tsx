// The "Leases" table: every lease the console knows, live.
import type { Lease } from '../../../shared/domain';
import { useUiStore } from '../state/ui-store';
import { formatAge, parseTime, verdictLabel } from './format';

export function LeasesTable({ leases, now }: { leases: readonly Lease[]; now: number }) {
  const selected = useUiStore((s) => s.selectedLeaseId);
  const selectLease = useUiStore((s) => s.selectLease);
  return (
    <table aria-label="Leases" className="leases">
      <thead>
        <tr>
          <th scope="col">ID</th>
          <th scope="col">Name</th>
          <th scope="col">State</th>
          <th scope="col">Guard</th>
          <th scope="col">Shape</th>
          <th scope="col">Age</th>
          <th scope="col">Processes</th>
          <th scope="col">Reconnects</th>
          <th scope="col">Containment</th>
        </tr>
      </thead>
      <tbody>
        {leases.map((lease) => (
          <tr
            key={lease.id}
            aria-selected={lease.id === selected}
            className={lease.verdict.status === 'unproven' ? 'unproven' : undefined}
            onClick={() => selectLease(lease.id)}
          >
            <td>
              <button type="button" className="link" onClick={() => selectLease(lease.id)}>{lease.id}</button>
            </td>
            <td>{lease.name ?? '—'}</td>
            <td>{lease.gone ? 'destroyed' : lease.rawStatus}</td>
            <td>{lease.guard}</td>
            <td>{lease.shape ?? '—'}</td>
            <td>{formatAge(parseTime(lease.createdAt), now)}</td>
            <td>{lease.processes.length}</td>
            <td>{lease.reconnects}</td>
            <td className={`verdict verdict-${lease.verdict.status}`}>{verdictLabel(lease)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
