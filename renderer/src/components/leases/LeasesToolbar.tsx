// Above the leases table: create, refresh, filter (text, state, unproven only) and bulk actions.
import { sandboxStatuses } from '../../../../shared/domain';
import { errorMessage } from '../../api/error-message';
import { useDialogStore } from '../../state/dialog-store';
import { useLeaseListStore } from '../../state/lease-list-store';
import type { LeaseActions } from './use-lease-actions';

const stateOptions = ['all', ...sandboxStatuses.filter((s) => s !== 'destroyed'), 'destroyed'] as const;

export function LeasesToolbar({ shown, total, destroyable, actions }: { shown: number; total: number; destroyable: number; actions: LeaseActions }) {
  const { create, refresh } = actions;
  const filterText = useLeaseListStore((s) => s.filterText);
  const setFilterText = useLeaseListStore((s) => s.setFilterText);
  const stateFilter = useLeaseListStore((s) => s.stateFilter);
  const setStateFilter = useLeaseListStore((s) => s.setStateFilter);
  const unprovenOnly = useLeaseListStore((s) => s.unprovenOnly);
  const setUnprovenOnly = useLeaseListStore((s) => s.setUnprovenOnly);
  const checkedCount = useLeaseListStore((s) => s.checked.size);
  const setChecked = useLeaseListStore((s) => s.setChecked);
  const openBulkDestroy = useDialogStore((s) => s.openBulkDestroy);

  return (
    <div className="leases-toolbar">
      <div className="toolbar">
        <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>New lease</button>
        <button type="button" onClick={() => refresh.mutate()} disabled={refresh.isPending}>{refresh.isPending ? 'Refreshing…' : 'Refresh'}</button>
        {create.isPending && <span role="status" className="muted">Creating a lease…</span>}
        {create.error && <span role="alert" className="error">New lease failed: {errorMessage(create.error)}</span>}
        {refresh.error && <span role="alert" className="error">Refresh failed: {errorMessage(refresh.error)}</span>}
        {refresh.data && !refresh.isPending && <span role="status" className="muted">Refreshed: {refresh.data.leases} leases</span>}
      </div>
      <div className="toolbar filters" role="search" aria-label="Lease filters">
        <input type="search" aria-label="Filter leases" placeholder="Filter by id, name, shape, state…" value={filterText} onChange={(e) => setFilterText(e.target.value)} />
        <label>
          State{' '}
          <select value={stateFilter} onChange={(e) => setStateFilter(e.target.value)}>
            {stateOptions.map((state) => <option key={state} value={state}>{state === 'all' ? 'All states' : state}</option>)}
          </select>
        </label>
        <label className="check"><input type="checkbox" checked={unprovenOnly} onChange={(e) => setUnprovenOnly(e.target.checked)} /> Unproven only</label>
        <span className="muted" role="status" aria-live="polite">Showing {shown} of {total}</span>
      </div>
      {checkedCount > 0 && (
        <div className="toolbar bulk">
          <span>{checkedCount} selected</span>
          <button type="button" className="danger" onClick={openBulkDestroy} disabled={destroyable === 0}>Destroy selected ({destroyable})</button>
          <button type="button" onClick={() => setChecked([])}>Clear selection</button>
        </div>
      )}
    </div>
  );
}
