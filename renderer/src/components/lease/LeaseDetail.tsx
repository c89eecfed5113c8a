// One lease: its facts and verdict, destroy progress, actions, processes, the live tail of the
// selected process, and its timeline.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Lease } from '../../../../shared/domain';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { useDialogStore } from '../../state/dialog-store';
import { useUiStore } from '../../state/ui-store';
import { ContainmentBanner } from '../containment/ContainmentBanner';
import { EvidenceList } from '../containment/EvidenceList';
import { clockTime, leaseState, verdictLabel } from '../format';
import { TailView } from '../tail/TailView';
import { DestroyStatus } from './DestroyStatus';
import { LeaseTimeline } from './LeaseTimeline';
import { PauseResumeButtons } from './PauseResumeButtons';
import { ProcessList } from './ProcessList';
import { RunCommandForm } from './RunCommandForm';

export function LeaseDetail({ lease }: { lease: Lease }) {
  const client = useConsoleClient();
  const [running, setRunning] = useState(false);
  const selectedProcessId = useUiStore((s) => s.selectedProcessId);
  const selectLease = useUiStore((s) => s.selectLease);
  const openDestroy = useDialogStore((s) => s.openDestroy);
  const openExport = useDialogStore((s) => s.openExport);
  const forget = useMutation({ mutationFn: () => client.leases.clear({ leaseId: lease.id }), onSuccess: () => selectLease(null) });
  const newest = lease.processes[lease.processes.length - 1];
  const processId = lease.processes.some((p) => p.processId === selectedProcessId) ? selectedProcessId : newest?.processId ?? null;
  const destroying = lease.destroy?.state === 'destroying';

  return (
    <section className="lease-detail" aria-label={`Lease ${lease.id}`}>
      <header>
        <h2>{lease.id}{lease.name && <span className="muted"> {lease.name}</span>}</h2>
        <p className="facts">
          State <strong>{leaseState(lease)}</strong> · guard {lease.guard} · shape {lease.shape ?? '—'} · reconnects {lease.reconnects} ·
          containment <strong className={`verdict verdict-${lease.verdict.status}`}>{verdictLabel(lease)}</strong>
          {lease.verdict.since !== null && <span className="muted"> since {clockTime(lease.verdict.since)}</span>}
        </p>
        <DestroyStatus lease={lease} />
        <div className="actions">
          <button type="button" onClick={() => setRunning(true)} disabled={lease.gone || destroying || running}>Run command</button>
          <button type="button" className="danger" onClick={() => openDestroy(lease.id)} disabled={lease.gone || destroying}>Destroy lease</button>
          <button type="button" onClick={() => openExport({ kind: 'lease', leaseId: lease.id })}>Export incident log</button>
          <PauseResumeButtons lease={lease} />
          {lease.gone && <button type="button" onClick={() => forget.mutate()} disabled={forget.isPending}>Forget lease</button>}
        </div>
        {forget.error && <p role="alert" className="error">Forget failed: {errorMessage(forget.error)}</p>}
      </header>
      {lease.verdict.status === 'unproven' && <ContainmentBanner lease={lease} />}
      {lease.verdict.status !== 'unproven' && lease.verdict.reasons.length > 0 && <EvidenceList reasons={lease.verdict.reasons} />}
      {running && <RunCommandForm leaseId={lease.id} onDone={() => setRunning(false)} />}
      <ProcessList leaseId={lease.id} processes={lease.processes} selectedProcessId={processId} canStop={!lease.gone} />
      {processId && <TailView key={processId} leaseId={lease.id} processId={processId} />}
      <LeaseTimeline lease={lease} />
    </section>
  );
}
