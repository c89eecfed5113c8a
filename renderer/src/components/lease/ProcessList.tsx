// The processes of one lease: state, exit, stream health ("Reconnects N"), bytes, and Stop.
import type { ProcessInfo } from '../../../../shared/domain';
import { useUiStore } from '../../state/ui-store';
import { formatAge, formatBytes } from '../format';
import { useNow } from '../use-now';
import { StopProcessButton } from './StopProcessButton';

const stoppable = new Set<ProcessInfo['state']>(['starting', 'running', 'terminating', 'unknown']);
const finished = new Set<ProcessInfo['state']>(['exited', 'failed']);

/** Exit code or signal, and what is known of the tree once the process is done. */
export function exitText(process: ProcessInfo): string {
  const parts: string[] = [];
  if (process.signal) parts.push(`signal ${process.signal}`);
  else if (process.exitCode !== null) parts.push(`exit ${process.exitCode}`);
  const done = finished.has(process.state) || process.leaderExited === true;
  if (done && process.treeExited === true) parts.push('tree exited');
  if (done && process.treeExited === false) parts.push('tree not proven gone');
  return parts.join(' · ');
}

export function ProcessList({ leaseId, processes, selectedProcessId, canStop }: { leaseId: string; processes: readonly ProcessInfo[]; selectedProcessId: string | null; canStop: boolean }) {
  const selectProcess = useUiStore((s) => s.selectProcess);
  const now = useNow(1000);
  if (processes.length === 0) return <p className="muted">No processes yet. “Run command” starts one.</p>;
  return (
    <div className="processes-wrap">
      <table aria-label="Processes" className="processes">
        <thead>
          <tr><th scope="col">Process</th><th scope="col">State</th><th scope="col">Stream</th><th scope="col">Actions</th></tr>
        </thead>
        <tbody>
          {processes.map((p) => {
            const exit = exitText(p);
            return (
              <tr key={p.processId} aria-selected={p.processId === selectedProcessId}>
                <td>
                  <button type="button" className="link" aria-label={`Show output of ${p.processId}`} onClick={() => selectProcess(p.processId)}>{p.processId}</button>
                  <div><code className="command" title={p.command ?? undefined}>{p.command ?? '(not started here)'}</code></div>
                </td>
                <td>
                  {p.state}
                  {exit && <div className={exit.includes('not proven') ? 'error' : 'muted'}>{exit}</div>}
                </td>
                <td>
                  <span className="reconnects">Reconnects {p.stream.reconnects}</span>
                  <div className="muted">{formatBytes(p.stream.bytesReceived)} received</div>
                  {p.stream.lostBytes > 0 && <div className="error">{formatBytes(p.stream.lostBytes)} lost</div>}
                  {!p.stream.attached && !finished.has(p.state) && <div className="muted">detached</div>}
                  {p.stream.endedWithoutExit && <div className="error">ended without exit: {p.stream.endedWithoutExit}</div>}
                  <div className="muted">last output {p.lastOutputAt === null ? 'never' : `${formatAge(p.lastOutputAt, now)} ago`}</div>
                </td>
                <td>{canStop && stoppable.has(p.state) && <StopProcessButton leaseId={leaseId} processId={p.processId} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
