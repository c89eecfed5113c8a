// The live output tail of one process.
import { useEffect, useMemo } from 'react';
import { useConsoleClient } from '../api/client-context';
import { useTailStore } from '../state/tail-store';
import { toTailLines } from './tail-lines';

function useTailSubscription(leaseId: string, processId: string): void {
  const client = useConsoleClient();
  const replace = useTailStore((s) => s.replace);
  const append = useTailStore((s) => s.append);
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        const events = await client.processes.tail({ leaseId, processId }, { signal: controller.signal });
        for await (const event of events) {
          if (event.type === 'replay') replace(processId, event.entries);
          else append(processId, event.entries);
        }
      } catch {
        // Unsubscribed or disconnected; the lease view re-mounts the tail when the host is back.
      }
    })();
    return () => controller.abort();
  }, [client, leaseId, processId, replace, append]);
}

export function TailView({ leaseId, processId }: { leaseId: string; processId: string }) {
  useTailSubscription(leaseId, processId);
  const entries = useTailStore((s) => s.tails[processId]);
  const lines = useMemo(() => toTailLines(entries ?? []), [entries]);
  return (
    <section className="tail" aria-label={`Output of ${processId}`}>
      <div className="tail-lines" role="log" aria-live="off">
        {lines.map((line, index) => (
          <div key={index} className={line.kind === 'text' ? `line ${line.stream}` : `line marker ${line.tone}`}>{line.text}</div>
        ))}
      </div>
    </section>
  );
}
