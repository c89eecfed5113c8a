import { describe, expect, it } from 'vitest';
import { makeLease } from '../test/lease-fixtures';
import { applyLeaseEvent, applyLeaseEvents } from './apply-lease-event';

describe('applying pushed lease events', () => {
  const a = makeLease({ id: 'sb_a' });
  const b = makeLease({ id: 'sb_b' });

  it('replaces, adds and removes leases, keeping positions', () => {
    const updated = { ...a, reconnects: 3 };
    expect(applyLeaseEvent([a, b], { type: 'upsert', lease: updated })).toEqual([updated, b]);
    expect(applyLeaseEvent([a], { type: 'upsert', lease: b })).toEqual([a, b]);
    expect(applyLeaseEvent([a, b], { type: 'removed', leaseId: 'sb_a' })).toEqual([b]);
  });

  it('gives the same result for a batch as for the events one by one', () => {
    const events = [
      { type: 'upsert' as const, lease: { ...a, reconnects: 1 } },
      { type: 'upsert' as const, lease: makeLease({ id: 'sb_c' }) },
      { type: 'removed' as const, leaseId: 'sb_b' },
      { type: 'upsert' as const, lease: { ...a, reconnects: 2 } },
    ];
    const oneByOne = events.reduce<ReturnType<typeof applyLeaseEvent>>((list, event) => applyLeaseEvent(list, event), [a, b]);
    expect(applyLeaseEvents([a, b], events)).toEqual(oneByOne);
  });

  it('starts from the last snapshot in a batch', () => {
    const events = [
      { type: 'upsert' as const, lease: { ...a, reconnects: 9 } },
      { type: 'snapshot' as const, leases: [b] },
      { type: 'upsert' as const, lease: a },
    ];
    expect(applyLeaseEvents([a], events)).toEqual([b, a]);
  });
});
