// Sends desktop notifications through the platform notifier (when the operator allowed them).
import { useEffect, useRef } from 'react';
import type { Lease } from '../../../../shared/domain';
import { usePlatform } from '../../platform/platform-context';
import { useNow } from '../use-now';
import { collectNotifications, initialNotificationMemory } from './lease-notifications';

export function LeaseNotifications({ leases, ready }: { leases: readonly Lease[]; ready: boolean }) {
  const platform = usePlatform();
  const memory = useRef(initialNotificationMemory);
  const now = useNow(5000);
  useEffect(() => {
    if (!ready) return;
    const result = collectNotifications(leases, memory.current, Date.now());
    memory.current = result.memory;
    for (const note of result.notes) platform.notifier.notify(note.title, { body: note.body, tag: note.tag });
  }, [leases, ready, now, platform]);
  return null;
}
