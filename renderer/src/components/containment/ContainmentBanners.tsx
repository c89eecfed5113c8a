// The banner list at the top of the app, while any lease is (or was, until dismissed) unproven.
import { useEffect, useMemo } from 'react';
import type { Lease } from '../../../../shared/domain';
import { useContainmentStore } from '../../state/containment-store';
import { useUiStore } from '../../state/ui-store';
import { bannerItems } from './banner-items';
import { ContainmentBanner } from './ContainmentBanner';
import { ResolvedNotice, VanishedNotice } from './ResolvedNotice';

export function ContainmentBanners({ leases }: { leases: readonly Lease[] }) {
  const tracked = useContainmentStore((s) => s.tracked);
  const track = useContainmentStore((s) => s.track);
  const dismiss = useContainmentStore((s) => s.dismiss);
  const selectLease = useUiStore((s) => s.selectLease);
  useEffect(() => track(leases), [leases, track]);
  const items = useMemo(() => bannerItems(leases, tracked), [leases, tracked]);
  if (items.length === 0) return null;
  return (
    <section className="banners" aria-label="Unproven leases">
      {items.map((item) => {
        switch (item.kind) {
          case 'unproven': return <ContainmentBanner key={item.lease.id} lease={item.lease} reasons={item.reasons} onShow={selectLease} />;
          case 'resolved': return <ResolvedNotice key={item.lease.id} lease={item.lease} onDismiss={dismiss} />;
          case 'vanished': return <VanishedNotice key={item.tracked.id} tracked={item.tracked} onDismiss={dismiss} />;
        }
      })}
    </section>
  );
}
