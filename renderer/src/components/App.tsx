// The console: unproven banners on top, the leases list, and the selected lease.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useConsoleClient } from '../api/client-context';
import { leasesQuery, systemInfoQuery } from '../api/queries';
import { useLeaseEvents } from '../api/use-lease-events';
import { useUiStore } from '../state/ui-store';
import { ContainmentBanners } from './ContainmentBanner';
import { LeaseDetail } from './LeaseDetail';
import { LeasesTable } from './LeasesTable';

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function App() {
  useLeaseEvents();
  const client = useConsoleClient();
  const leases = useQuery(leasesQuery(client));
  const info = useQuery(systemInfoQuery(client));
  const live = useUiStore((s) => s.live);
  const selectedLeaseId = useUiStore((s) => s.selectedLeaseId);
  const selectLease = useUiStore((s) => s.selectLease);
  const now = useNow(1000);
  const create = useMutation({ mutationFn: () => client.leases.create({}), onSuccess: (lease) => selectLease(lease.id) });
  const list = leases.data ?? [];
  const selected = list.find((lease) => lease.id === selectedLeaseId) ?? null;
  const ready = live && info.isSuccess;

  return (
    <div className="app" data-app-ready={ready ? 'true' : 'false'}>
      <header className="topbar">
        <h1>Leasewatch</h1>
        <span className={live ? 'conn live' : 'conn down'}>{live ? 'Live' : 'Connecting…'}</span>
        {info.data && <span className="muted">{info.data.providerKind} · {info.data.providerUrl}{info.data.queuedRequests > 0 ? ` · ${info.data.queuedRequests} queued` : ''}</span>}
      </header>
      <ContainmentBanners leases={list} />
      <main className="layout">
        <section className="leases-panel" aria-label="Leases panel">
          <div className="toolbar">
            <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>New lease</button>
            {create.error && <span className="error">{create.error.message}</span>}
          </div>
          {leases.isPending ? <p className="muted">Loading leases…</p> : list.length === 0 ? <p className="muted">No leases yet.</p> : null}
          <LeasesTable leases={list} now={now} />
        </section>
        {selected ? <LeaseDetail lease={selected} /> : <p className="muted placeholder">Select a lease.</p>}
      </main>
    </div>
  );
}
