// "Run command": a shell command run through the host's execute rules; its output streams live.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';

export function RunCommandForm({ leaseId, onDone }: { leaseId: string; onDone: () => void }) {
  const client = useConsoleClient();
  const [command, setCommand] = useState('');
  const [timeout, setTimeoutSeconds] = useState('');
  const [stdin, setStdin] = useState('');
  const run = useMutation({
    mutationFn: () => client.processes.run({
      leaseId,
      command,
      ...(timeout.trim() ? { timeoutSeconds: Number(timeout) } : {}),
      ...(stdin ? { stdin } : {}),
    }),
    onSuccess: onDone,
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    run.mutate();
  };
  return (
    <form className="run-form" onSubmit={submit} aria-label="Run command" onKeyDown={(e) => { if (e.key === 'Escape') onDone(); }}>
      <label>Command <input type="text" value={command} onChange={(e) => setCommand(e.target.value)} autoFocus required /></label>
      <label>Timeout (seconds) <input type="number" min={1} max={86400} value={timeout} onChange={(e) => setTimeoutSeconds(e.target.value)} /></label>
      <label>Stdin (optional) <textarea value={stdin} onChange={(e) => setStdin(e.target.value)} rows={2} /></label>
      {run.isPending && <p role="status" className="muted">Starting…</p>}
      {run.error && <p role="alert" className="error">Run failed: {errorMessage(run.error)}</p>}
      <div className="actions">
        <button type="submit" disabled={run.isPending || command === ''}>Run</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}
