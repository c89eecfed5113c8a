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
}

export const leaseColumns: readonly LeaseColumn[] = [
  { key: 'id', label: 'ID', width: 'minmax(140px, 1.6fr)', cell: () => null /* rendered as the open button */ },
  { key: 'name', label: 'Name', width: 'minmax(100px, 1.2fr)', cell: (l) => l.name ?? '—' },
  { key: 'state', label: 'State', width: '90px', cell: (l) => leaseState(l) },
  { key: 'guard', label: 'Guard', width: '120px', cell: (l) => l.guard },
  { key: 'shape', label: 'Shape', width: '80px', cell: (l) => l.shape ?? '—' },
  { key: 'age', label: 'Age', width: '64px', cell: (l, now) => formatAge(parseTime(l.createdAt), now) },
  { key: 'processes', label: 'Processes', width: '80px', cell: (l) => l.processes.length },
  { key: 'reconnects', label: 'Reconnects', width: '88px', cell: (l) => l.reconnects },
  { key: 'containment', label: 'Containment', width: '104px', cell: (l) => verdictLabel(l) },
  { key: 'lastOutput', label: 'Last output', width: '88px', cell: (l, now) => formatAge(l.lastOutputAt, now) },
];

/** Checkbox column first, then every data column. */
export const leaseGridTemplate = `36px ${leaseColumns.map((c) => c.width).join(' ')}`;
