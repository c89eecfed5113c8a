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

/** Applies a batch of events in order, in one pass over the list (upserts keep their position). */
export function applyLeaseEvents(current: readonly Lease[] | undefined, events: readonly LeaseEvent[]): Lease[] {
  const lastSnapshot = events.map((e) => e.type).lastIndexOf('snapshot');
  const base = lastSnapshot >= 0 ? (events[lastSnapshot] as Extract<LeaseEvent, { type: 'snapshot' }>).leases : current ?? [];
  const rest = lastSnapshot >= 0 ? events.slice(lastSnapshot + 1) : events;
  if (rest.length === 0) return [...base];
  const byId = new Map(base.map((lease) => [lease.id, lease]));
  for (const event of rest) {
    if (event.type === 'upsert') byId.set(event.lease.id, event.lease);
    else if (event.type === 'removed') byId.delete(event.leaseId);
  }
  return [...byId.values()];
}
