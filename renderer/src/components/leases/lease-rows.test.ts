import { describe, expect, it } from 'vitest';
import { makeLease, makeProcess, unprovenLease } from '../../test/lease-fixtures';
import { filterLeases, sortLeases } from './lease-rows';

const all = { text: '', state: 'all', unprovenOnly: false };

describe('filterLeases', () => {
  const leases = [
    makeLease({ id: 'alpha', name: 'web-1', shape: 'large' }),
    makeLease({ id: 'beta', status: 'paused', rawStatus: 'paused' }),
    { ...unprovenLease('gamma', 'db'), gone: false },
    makeLease({ id: 'delta', gone: true, status: 'destroyed', rawStatus: 'destroyed' }),
  ];

  it('matches text in id, name and shape, case-insensitive', () => {
    expect(filterLeases(leases, { ...all, text: 'WEB' }).map((l) => l.id)).toEqual(['alpha']);
    expect(filterLeases(leases, { ...all, text: 'large' }).map((l) => l.id)).toEqual(['alpha']);
  });

  it('filters by state, with destroyed for leases proven gone', () => {
    expect(filterLeases(leases, { ...all, state: 'paused' }).map((l) => l.id)).toEqual(['beta']);
    expect(filterLeases(leases, { ...all, state: 'destroyed' }).map((l) => l.id)).toEqual(['delta']);
  });

  it('keeps only unproven leases when asked', () => {
    expect(filterLeases(leases, { ...all, unprovenOnly: true }).map((l) => l.id)).toEqual(['gamma']);
  });
});

describe('sortLeases', () => {
  it('sorts by a column both ways, ties broken by id, nulls last', () => {
    const leases = [
      makeLease({ id: 'b', processes: [makeProcess({ processId: 'p', leaseId: 'b' })] }),
      makeLease({ id: 'a' }),
      makeLease({ id: 'c', processes: [makeProcess({ processId: 'p', leaseId: 'c' }), makeProcess({ processId: 'q', leaseId: 'c' })] }),
    ];
    expect(sortLeases(leases, { column: 'processes', direction: 'ascending' }).map((l) => l.id)).toEqual(['a', 'b', 'c']);
    expect(sortLeases(leases, { column: 'processes', direction: 'descending' }).map((l) => l.id)).toEqual(['c', 'b', 'a']);
    const named = [makeLease({ id: 'x', name: null }), makeLease({ id: 'y', name: 'zeta' }), makeLease({ id: 'z', name: 'alpha' })];
    expect(sortLeases(named, { column: 'name', direction: 'ascending' }).map((l) => l.id)).toEqual(['z', 'y', 'x']);
    expect(sortLeases(named, { column: 'name', direction: 'descending' }).map((l) => l.id)).toEqual(['y', 'z', 'x']);
  });

  it('puts unproven first when sorting containment ascending', () => {
    const leases = [makeLease({ id: 'ok' }), unprovenLease('bad')];
    expect(sortLeases(leases, { column: 'containment', direction: 'ascending' }).map((l) => l.id)).toEqual(['bad', 'ok']);
  });

  it('handles 5,000 leases', () => {
    const leases = Array.from({ length: 5000 }, (_, i) => makeLease({ id: `lease-${String(4999 - i).padStart(4, '0')}`, reconnects: i % 7 }));
    const sorted = sortLeases(leases, { column: 'id', direction: 'ascending' });
    expect(sorted[0]?.id).toBe('lease-0000');
    expect(sorted[4999]?.id).toBe('lease-4999');
    expect(filterLeases(sorted, { ...all, text: 'lease-12' })).toHaveLength(100);
  });
});
