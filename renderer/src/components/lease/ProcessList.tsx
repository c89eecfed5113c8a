// The processes of one lease: state, exit, reconnects, bytes.
import type { ProcessInfo } from '../../../shared/domain';
import { useUiStore } from '../state/ui-store';

function exitText(process: ProcessInfo): string {
  if (process.signal) return `signal ${process.signal}`;
  if (process.exitCode !== null) return `exit ${process.exitCode}`;
  return '—';
}

export function ProcessList({ processes }: { processes: readonly ProcessInfo[] }) {
  const selected = useUiStore((s) => s.selectedProcessId);
  const selectProcess = useUiStore((s) => s.selectProcess);
  if (processes.length === 0) return <p className="muted">No processes yet.</p>;
  return (
    <table aria-label="Processes" className="processes">
      <thead>
        <tr><th scope="col">Process</th><th scope="col">Command</th><th scope="col">State</th><th scope="col">Exit</th><th scope="col">Stream</th><th scope="col">Bytes</th></tr>
      </thead>
      <tbody>
        {processes.map((p) => (
          <tr key={p.processId} aria-selected={p.processId === selected} onClick={() => selectProcess(p.processId)}>
            <td><button type="button" className="link" onClick={() => selectProcess(p.processId)}>{p.processId}</button></td>
            <td><code>{p.command ?? '(not started here)'}</code></td>
            <td>{p.state}</td>
            <td>{exitText(p)}</td>
            <td>Reconnects {p.stream.reconnects}{p.stream.lostBytes > 0 ? ` · ${p.stream.lostBytes} bytes lost` : ''}</td>
            <td>{p.stream.bytesReceived}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
