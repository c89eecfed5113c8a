// Bulk destroy of the selected leases: the count, a reason, a typed confirmation, then each lease's
// own result (and live progress while the host works through them).
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import type { Lease } from '../../../../shared/domain';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { useLeaseListStore } from '../../state/lease-list-store';
import { Dialog } from '../Dialog';
import { describeDestroy, elapsedSeconds, leaseLabel } from '../format';
import { useNow } from '../use-now';
import { confirmationPhrase, isConfirmed } from './bulk-confirmation';
import { destroyableChecked } from './lease-rows';

export function BulkDestroyDialog({ leases, onClose }: { leases: readonly Lease[]; onClose: () => void }) {
  const client = useConsoleClient();
  const checked = useLeaseListStore((s) => s.checked);
  const setChecked = useLeaseListStore((s) => s.setChecked);
  // The targets are fixed when the dialog opens: later ticks do not change what was confirmed.
  const [targetIds] = useState(() => destroyableChecked(leases, checked).map((l) => l.id));
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const count = targetIds.length;
  const destroyMany = useMutation({
    mutationFn: () => client.leases.destroyMany({ leaseIds: targetIds, reason }),
    onSuccess: () => setChecked([]),
  });
  const now = useNow(1000, destroyMany.isPending);
  const byId = useMemo(() => new Map(leases.map((l) => [l.id, l])), [leases]);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (isConfirmed(typed, count) && reason.trim() !== '') destroyMany.mutate();
  };
  const results = destroyMany.data?.results;
  const failed = results?.filter((r) => !r.ok).length ?? 0;

  return (
    <Dialog label={`Destroy ${count} ${count === 1 ? 'lease' : 'leases'}`} onClose={onClose} className="bulk-dialog">
      <form onSubmit={submit}>
        <h2>Destroy {count} {count === 1 ? 'lease' : 'leases'}</h2>
        <p>Every process in these leases is killed and their sandboxes are deleted.</p>
        <ul className="bulk-targets" aria-label="Leases to destroy">
          {targetIds.slice(0, 50).map((id) => { const lease = byId.get(id); return <li key={id}>{lease ? leaseLabel(lease) : id}</li>; })}
          {count > 50 && <li className="muted">…and {count - 50} more</li>}
        </ul>
        {!results && (
          <>
            <label>Reason <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} autoFocus required maxLength={500} /></label>
            <label>
              Confirmation: type {count} or “{confirmationPhrase(count)}”
              <input type="text" value={typed} onChange={(e) => setTyped(e.target.value)} aria-label="Confirmation" autoComplete="off" />
            </label>
            <button type="submit" className="danger" disabled={destroyMany.isPending || !isConfirmed(typed, count) || reason.trim() === ''}>
              Destroy {count} {count === 1 ? 'lease' : 'leases'}
            </button>
          </>
        )}
        {destroyMany.isPending && (
          <div role="status">
            <p>Destroying {count} leases… {elapsedSeconds(destroyMany.submittedAt, now)} s</p>
            <ul className="bulk-progress">
              {targetIds.map((id) => { const d = byId.get(id)?.destroy; return d ? <li key={id}>{id}: {describeDestroy(d, now)}</li> : null; })}
            </ul>
          </div>
        )}
        {destroyMany.error && <p role="alert" className="error">Bulk destroy failed: {errorMessage(destroyMany.error)}</p>}
        {results && (
          <div role="status" className="bulk-results">
            <p>{results.length - failed} of {results.length} destroyed{failed > 0 ? `, ${failed} failed` : ''}.</p>
            <table aria-label="Destroy results">
              <thead><tr><th scope="col">Lease</th><th scope="col">Result</th></tr></thead>
              <tbody>
                {results.map((r) => (
                  <tr key={r.leaseId} className={r.ok ? 'ok' : 'error'}>
                    <td>{r.leaseId}</td>
                    <td>{r.ok ? (byId.get(r.leaseId)?.destroy?.proof ? `Destroyed: ${byId.get(r.leaseId)?.destroy?.proof ?? ''}` : 'Destroyed') : `Failed: ${r.message ?? 'no reason given'}`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <button type="button" onClick={onClose}>{results ? 'Close' : 'Cancel'}</button>
      </form>
    </Dialog>
  );
}
