// The console: unproven banners on top, the leases list, the selected lease, and the dialogs.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Lease } from '../../../shared/domain';
import { useConsoleClient } from '../api/client-context';
import { leasesQuery, systemInfoQuery } from '../api/queries';
import { useLeaseEvents } from '../api/use-lease-events';
import { useLeaseListStore } from '../state/lease-list-store';
import { useUiStore } from '../state/ui-store';
import { AppDialogs } from './AppDialogs';
import { ContainmentBanners } from './containment/ContainmentBanners';
import { LeaseDetail } from './lease/LeaseDetail';
import { destroyableChecked } from './leases/lease-rows';
import { LeasesView } from './leases/LeasesView';
import { useLeaseActions } from './leases/use-lease-actions';
import { LeaseNotifications } from './notifications/LeaseNotifications';
import { usePaletteCommands } from './palette/use-palette-commands';
import { usePaletteShortcut } from './palette/use-palette-shortcut';
import { TopBar } from './TopBar';
import { useTheme } from './use-theme';

const noLeases: readonly Lease[] = [];

export function App() {
  useLeaseEvents();
  usePaletteShortcut();
  const client = useConsoleClient();
  const leases = useQuery(leasesQuery(client));
  const info = useQuery(systemInfoQuery(client));
  const live = useUiStore((s) => s.live);
  const selectedLeaseId = useUiStore((s) => s.selectedLeaseId);
  const checked = useLeaseListStore((s) => s.checked);
  const theme = useTheme();
  const actions = useLeaseActions();
  const list = leases.data ?? noLeases;
  const selected = useMemo(() => list.find((lease) => lease.id === selectedLeaseId) ?? null, [list, selectedLeaseId]);
  const destroyable = useMemo(() => destroyableChecked(list, checked).length, [list, checked]);
  const commands = usePaletteCommands(selected, theme, { createLease: () => actions.create.mutate(), refresh: () => actions.refresh.mutate() }, destroyable);
  const ready = live && info.isSuccess;

  return (
    <div className="app" data-app-ready={ready ? 'true' : 'false'} data-theme={theme}>
      <TopBar info={info.data} live={live} theme={theme} />
      {!live && leases.data && (
        <p role="status" className="banner banner-offline">Connection to the host lost: showing the last known state while reconnecting.</p>
      )}
      {info.error && <p role="alert" className="error banner">Host status unavailable: {info.error.message}</p>}
      <ContainmentBanners leases={list} />
      <main className="layout">
        <LeasesView query={{ leases: list, isPending: leases.isPending, error: leases.error, retry: () => void leases.refetch() }} actions={actions} />
        {selected ? <LeaseDetail key={selected.id} lease={selected} /> : <p className="muted placeholder">Select a lease: click it, or use the arrow keys in the table and press Enter.</p>}
      </main>
      <AppDialogs leases={list} commands={commands} />
      <LeaseNotifications leases={list} ready={live} />
    </div>
  );
}
