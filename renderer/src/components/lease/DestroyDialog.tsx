// Manual destroy: confirms the lease by name and asks why.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { Lease } from '../../../../shared/domain';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { Dialog } from '../Dialog';

export function DestroyDialog({ lease, onClose }: { lease: Lease; onClose: () => void }) {
  const client = useConsoleClient();
  const [reason, setReason] = useState('');
  // The dialog closes as soon as the host has started: progress and proof show on the lease.
  const destroy = useMutation({ mutationFn: () => client.leases.destroy({ leaseId: lease.id, reason }) });
  const started = destroy.isPending && lease.destroy?.state === 'destroying';
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    destroy.mutate();
  };
  useEffect(() => {
    if (started || destroy.isSuccess) onClose();
  }, [started, destroy.isSuccess, onClose]);
  return (
    <Dialog label={`Destroy lease ${lease.id}`} onClose={onClose}>
      <form onSubmit={submit}>
        <h2>Destroy lease</h2>
        <p>Destroy lease <strong>{lease.id}</strong>{lease.name ? ` (${lease.name})` : ''}? Every process in it is killed and its sandbox is deleted.</p>
        <label>Reason <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} autoFocus required maxLength={500} /></label>
        {destroy.isPending && <p role="status" className="muted">Asking the host to destroy…</p>}
        {destroy.error && <p role="alert" className="error">Destroy failed: {errorMessage(destroy.error)}</p>}
        <div className="actions">
          <button type="submit" className="danger" disabled={destroy.isPending || reason.trim() === ''}>Confirm destroy</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Dialog>
  );
}

