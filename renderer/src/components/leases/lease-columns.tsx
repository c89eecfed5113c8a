// The columns of the "Leases" table: label, width and how a lease fills the cell.
import type { ReactNode } from 'react';
import type { Lease } from '../../../../shared/domain';
import type { SortColumn } from '../../state/lease-list-store';
import { formatAge, leaseState, parseTime, verdictLabel } from '../format';

export interface LeaseColumn {
  readonly key: SortColumn;
  readonly label: string;
  readonly width: string;
  readonly cell: (lease: Lease, now: number) => ReactNode;
  /** The full text when the cell may be cut short. */
  readonly title?: (lease: Lease) => string | undefined;
}

export const leaseColumns: readonly LeaseColumn[] = [
  { key: 'id', label: 'ID', width: 'minmax(100px, 1.3fr)', cell: () => null /* rendered as the open button */ },
  { key: 'name', label: 'Name', width: 'minmax(60px, 1fr)', cell: (l) => l.name ?? '—', title: (l) => l.name ?? undefined },
  { key: 'containment', label: 'Containment', width: '96px', cell: (l) => verdictLabel(l) },
  { key: 'state', label: 'State', width: '76px', cell: (l) => leaseState(l) },
  { key: 'guard', label: 'Guard', width: '86px', cell: (l) => l.guard, title: (l) => l.guard },
  { key: 'shape', label: 'Shape', width: '66px', cell: (l) => l.shape ?? '—', title: (l) => l.shape ?? undefined },
  { key: 'age', label: 'Age', width: '50px', cell: (l, now) => formatAge(parseTime(l.createdAt), now) },
  { key: 'processes', label: 'Processes', width: '76px', cell: (l) => l.processes.length },
  { key: 'reconnects', label: 'Reconnects', width: '84px', cell: (l) => l.reconnects },
  { key: 'lastOutput', label: 'Last output', width: '74px', cell: (l, now) => formatAge(l.lastOutputAt, now) },
];

/** Checkbox column first, then every data column. */
export const leaseGridTemplate = `36px ${leaseColumns.map((c) => c.width).join(' ')}`;
