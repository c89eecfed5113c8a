// Which leases the list shows, in which order. Pure, so it is tested without React.
import type { Lease } from '../../../../shared/domain';
import type { LeaseSort, SortColumn } from '../../state/lease-list-store';
import { leaseState, parseTime } from '../format';

export interface LeaseFilter {
  readonly text: string;
  readonly state: string;
  readonly unprovenOnly: boolean;
}

export function filterLeases(leases: readonly Lease[], filter: LeaseFilter): Lease[] {
  const needle = filter.text.trim().toLowerCase();
  return leases.filter((lease) => {
    if (filter.unprovenOnly && lease.verdict.status !== 'unproven') return false;
    if (filter.state !== 'all' && (lease.gone ? 'destroyed' : lease.status) !== filter.state) return false;
    if (needle === '') return true;
    return [lease.id, lease.name ?? '', lease.shape ?? '', leaseState(lease), lease.guard, lease.verdict.status].some((field) => field.toLowerCase().includes(needle));
  });
}

const verdictRank = { unproven: 0, pending: 1, active: 2, contained: 3 } as const;

type SortValue = string | number | null;

/** The value a column sorts by; null sorts last whatever the direction. */
function sortValue(lease: Lease, column: SortColumn): SortValue {
  switch (column) {
    case 'id': return lease.id;
    case 'name': return lease.name;
    case 'state': return leaseState(lease);
    case 'guard': return lease.guard;
    case 'shape': return lease.shape;
    // Ages: the younger (larger timestamp) is the smaller age.
    case 'age': { const at = parseTime(lease.createdAt); return at === null ? null : -at; }
    case 'processes': return lease.processes.length;
    case 'reconnects': return lease.reconnects;
    case 'containment': return verdictRank[lease.verdict.status];
    case 'lastOutput': return lease.lastOutputAt === null ? null : -lease.lastOutputAt;
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

export function sortLeases(leases: readonly Lease[], sort: LeaseSort | null): Lease[] {
  if (!sort) return [...leases];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const keyed = leases.map((lease) => ({ lease, value: sortValue(lease, sort.column) }));
  keyed.sort((x, y) => {
    if (x.value === null || y.value === null) {
      if (x.value === y.value) return x.lease.id.localeCompare(y.lease.id);
      return x.value === null ? 1 : -1;
    }
    return sign * compareValues(x.value, y.value) || x.lease.id.localeCompare(y.lease.id);
  });
  return keyed.map((k) => k.lease);
}

/** Leases that can still be destroyed among the checked ones. */
export function destroyableChecked(leases: readonly Lease[], checked: ReadonlySet<string>): Lease[] {
  return leases.filter((lease) => checked.has(lease.id) && !lease.gone);
}
