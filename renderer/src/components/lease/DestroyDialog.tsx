// Manual destroy: confirms the lease by name and asks why.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Lease } from '../../../shared/domain';
import { useConsoleClient } from '../api/client-context';

export function DestroyDialog({ lease, onClose }: { lease: Lease; onClose: () => void }) {
  const client = useConsoleClient();
  const [reason, setReason] = useState('');
  const destroy = useMutation({ mutationFn: () => client.leases.destroy({ leaseId: lease.id, reason }), onSuccess: onClose });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    destroy.mutate();
  };
  return (
    <div role="dialog" aria-modal="true" aria-label={`Destroy lease ${lease.id}`} className="dialog">
      <form onSubmit={submit}>
        <p>Destroy lease <strong>{lease.id}</strong>{lease.name ? ` (${lease.name})` : ''}? Every process in it is killed and its sandbox is deleted.</p>
        <label>Reason <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} autoFocus required /></label>
        {destroy.error && <p className="error">{destroy.error.message}</p>}
        <button type="submit" className="danger" disabled={destroy.isPending || reason.trim() === ''}>Confirm destroy</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </form>
    </div>
  );
}
