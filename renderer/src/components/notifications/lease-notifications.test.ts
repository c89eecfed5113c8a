import { describe, expect, it } from 'vitest';
import { makeLease, unprovenLease } from '../../test/lease-fixtures';
import { collectNotifications, initialNotificationMemory } from './lease-notifications';

describe('collectNotifications', () => {
  it('notifies when a lease becomes unproven, not for what was unproven at startup', () => {
    const first = collectNotifications([unprovenLease('old', 'legacy'), makeLease({ id: 'new' })], initialNotificationMemory, 0);
    expect(first.notes).toEqual([]);
    const second = collectNotifications([unprovenLease('old', 'legacy'), unprovenLease('new', 'web')], first.memory, 1);
    expect(second.notes).toHaveLength(1);
    expect(second.notes[0]).toMatchObject({ title: 'Containment unproven: new (web)', tag: 'unproven-new' });
    expect(second.notes[0]?.body).toContain('tree_exited=false');
    expect(collectNotifications([unprovenLease('old'), unprovenLease('new')], second.memory, 2).notes).toEqual([]);
  });

  it('notifies once when a destroy runs longer than 30 s', () => {
    const destroying = makeLease({ id: 'slow', destroy: { state: 'destroying', startedAt: 1000, finishedAt: null, attempts: 2, reason: 'r', requestedBy: 'op', proof: null, error: null } });
    const early = collectNotifications([destroying], initialNotificationMemory, 30_000);
    expect(early.notes).toEqual([]);
    const late = collectNotifications([destroying], early.memory, 32_000);
    expect(late.notes.map((n) => n.title)).toEqual(['Destroy still running after 31 s: slow']);
    expect(collectNotifications([destroying], late.memory, 60_000).notes).toEqual([]);
  });
});
