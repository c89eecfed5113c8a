// One lease: its processes, the live tail of the selected one, and its actions.
import { useState } from 'react';
import type { Lease } from '../../../shared/domain';
import { useUiStore } from '../state/ui-store';
import { ContainmentBanner } from './ContainmentBanner';
import { DestroyDialog } from './DestroyDialog';
import { ProcessList } from './ProcessList';
import { RunCommandForm } from './RunCommandForm';
import { TailView } from './TailView';

export function LeaseDetail({ lease }: { lease: Lease }) {
  const [running, setRunning] = useState(false);
  const [destroying, setDestroying] = useState(false);
  const selectedProcessId = useUiStore((s) => s.selectedProcessId);
  const newest = lease.processes[lease.processes.length - 1];
  const processId = selectedProcessId ?? newest?.processId ?? null;

  return (
    <section className="lease-detail" aria-label={`Lease ${lease.id}`}>
      <header>
        <h2>{lease.name ?? lease.id} <span className="muted">{lease.id}</span></h2>
        <p>State <strong>{lease.gone ? 'destroyed' : lease.rawStatus}</strong> · guard {lease.guard} · containment {lease.verdict.status}</p>
        {lease.destroy && (
          <p role="status" className="destroy-status">
            {lease.destroy.state === 'destroyed' ? `Destroyed: ${lease.destroy.proof ?? ''}` : lease.destroy.state === 'failed' ? `Destroy failed: ${lease.destroy.error ?? ''}` : 'Destroying…'}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={() => setRunning(true)} disabled={lease.gone}>Run command</button>
          <button type="button" className="danger" onClick={() => setDestroying(true)} disabled={lease.gone}>Destroy lease</button>
        </div>
      </header>
      {lease.verdict.status === 'unproven' && <ContainmentBanner lease={lease} />}
      {running && <RunCommandForm leaseId={lease.id} onDone={() => setRunning(false)} />}
      {destroying && <DestroyDialog lease={lease} onClose={() => setDestroying(false)} />}
      <ProcessList processes={lease.processes} />
      {processId && <TailView key={processId} leaseId={lease.id} processId={processId} />}
    </section>
  );
}
