// "Run command": a shell command run through the host's execute rules; its output streams live.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleClient } from '../api/client-context';

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
    <form className="run-form" onSubmit={submit} aria-label="Run command">
      <label>Command <input type="text" value={command} onChange={(e) => setCommand(e.target.value)} autoFocus /></label>
      <label>Timeout (seconds) <input type="number" min={1} value={timeout} onChange={(e) => setTimeoutSeconds(e.target.value)} /></label>
      <label>Stdin (optional) <textarea value={stdin} onChange={(e) => setStdin(e.target.value)} rows={2} /></label>
      {run.error && <p role="status" className="error">{run.error.message}</p>}
      <button type="submit" disabled={run.isPending}>Run</button>
      <button type="button" onClick={onDone}>Cancel</button>
    </form>
  );
}
