// How one push event changes the cached lease list. Pure, so it is tested without React.
import type { LeaseEvent } from '../../../shared/contract';
import type { Lease } from '../../../shared/domain';

export function applyLeaseEvent(current: readonly Lease[] | undefined, event: LeaseEvent): Lease[] {
  switch (event.type) {
    case 'snapshot':
      return event.leases;
    case 'upsert': {
      const list = current ? [...current] : [];
      const index = list.findIndex((lease) => lease.id === event.lease.id);
      if (index === -1) list.push(event.lease);
      else list[index] = event.lease;
      return list;
    }
    case 'removed':
      return (current ?? []).filter((lease) => lease.id !== event.leaseId);
  }
}
