// "Pause lease" / "Resume lease": through the host's lifecycle guard. Resume checks the lease's
// workspace marker; an expired lease is reported, not resumed.
import { useMutation } from '@tanstack/react-query';
import type { Lease } from '../../../../shared/domain';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';

export function PauseResumeButtons({ lease }: { lease: Lease }) {
  const client = useConsoleClient();
  const pause = useMutation({ mutationFn: () => client.leases.pause({ leaseId: lease.id }) });
  const resume = useMutation({ mutationFn: () => client.leases.resume({ leaseId: lease.id }) });
  const busy = pause.isPending || resume.isPending;
  const blocked = lease.gone || lease.destroy?.state === 'destroying';
  const error = pause.error ?? resume.error;
  return (
    <>
      {lease.status === 'paused' ? (
        <button type="button" onClick={() => resume.mutate()} disabled={busy || blocked}>{resume.isPending ? 'Resuming…' : 'Resume lease'}</button>
      ) : (
        <button type="button" onClick={() => pause.mutate()} disabled={busy || blocked || lease.status !== 'running'}>{pause.isPending ? 'Pausing…' : 'Pause lease'}</button>
      )}
      {resume.data && !resume.data.resumed && <span role="status" className="error">Not resumed: {resume.data.expired}</span>}
      {error && <span role="alert" className="error">{errorMessage(error)}</span>}
    </>
  );
}
