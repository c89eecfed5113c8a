// "Stop process": the host's process DELETE with grace; shows whether the whole tree exited.
import { useMutation } from '@tanstack/react-query';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';

export function StopProcessButton({ leaseId, processId }: { leaseId: string; processId: string }) {
  const client = useConsoleClient();
  const stop = useMutation({ mutationFn: () => client.processes.stop({ leaseId, processId }) });
  return (
    <span className="stop">
      <button type="button" className="danger" aria-busy={stop.isPending} disabled={stop.isPending} onClick={() => stop.mutate()}>Stop process</button>
      {stop.isPending && <span role="status" className="muted"> Stopping…</span>}
      {stop.data && (
        <span role="status" className={stop.data.treeExited ? 'ok' : 'error'}>
          {stop.data.treeExited ? ' Stopped: process tree exited' : ' Not proven: the process tree did not exit'}
        </span>
      )}
      {stop.error && <span role="alert" className="error"> Stop failed: {errorMessage(stop.error)}</span>}
    </span>
  );
}
