// The leases panel: toolbar, the live "Leases" table, and its loading, empty and error states.
import { useMemo } from 'react';
import type { Lease } from '../../../../shared/domain';
import { errorMessage } from '../../api/error-message';
import { useLeaseListStore } from '../../state/lease-list-store';
import { destroyableChecked, filterLeases, sortLeases } from './lease-rows';
import { LeasesTable } from './LeasesTable';
import { LeasesToolbar } from './LeasesToolbar';
import type { LeaseActions } from './use-lease-actions';

export interface LeasesQueryState {
  readonly leases: readonly Lease[];
  readonly isPending: boolean;
  readonly error: Error | null;
  readonly retry: () => void;
}

export function LeasesView({ query, actions }: { query: LeasesQueryState; actions: LeaseActions }) {
  const text = useLeaseListStore((s) => s.filterText);
  const state = useLeaseListStore((s) => s.stateFilter);
  const unprovenOnly = useLeaseListStore((s) => s.unprovenOnly);
  const sort = useLeaseListStore((s) => s.sort);
  const checked = useLeaseListStore((s) => s.checked);
  const filtered = useMemo(() => filterLeases(query.leases, { text, state, unprovenOnly }), [query.leases, text, state, unprovenOnly]);
  const rows = useMemo(() => sortLeases(filtered, sort), [filtered, sort]);
  const destroyable = useMemo(() => destroyableChecked(query.leases, checked).length, [query.leases, checked]);

  return (
    <section className="leases-panel" aria-label="Leases panel">
      <LeasesToolbar shown={rows.length} total={query.leases.length} destroyable={destroyable} actions={actions} />
      {query.error && (
        <p role="alert" className="error">
          Could not load leases: {errorMessage(query.error)} <button type="button" onClick={query.retry}>Retry</button>
        </p>
      )}
      {query.isPending && !query.error && <p role="status" className="muted">Loading leases…</p>}
      {!query.isPending && query.leases.length === 0 && <p className="muted">No leases yet. “New lease” creates one.</p>}
      {query.leases.length > 0 && rows.length === 0 && <p className="muted">No lease matches the filter.</p>}
      <LeasesTable rows={rows} />
    </section>
  );
}
