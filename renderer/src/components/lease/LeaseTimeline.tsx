// What happened to a lease, in order (the host's timeline), refreshed when the lease has news.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Lease } from '../../../../shared/domain';
import { useConsoleClient } from '../../api/client-context';
import { errorMessage } from '../../api/error-message';
import { leaseTimelineQuery } from '../../api/queries';
import { dateTime } from '../format';
import { timelineSignature } from './timeline-signature';

const shownByDefault = 100;

export function LeaseTimeline({ lease }: { lease: Lease }) {
  const client = useConsoleClient();
  const queryClient = useQueryClient();
  const options = leaseTimelineQuery(client, lease.id);
  const timeline = useQuery(options);
  const [showAll, setShowAll] = useState(false);
  const signature = timelineSignature(lease);
  const previous = useRef(signature);
  useEffect(() => {
    if (previous.current === signature) return;
    previous.current = signature;
    void queryClient.invalidateQueries({ queryKey: options.queryKey });
  }, [signature, queryClient, options.queryKey]);

  const entries = timeline.data ?? [];
  const shown = showAll ? entries : entries.slice(-shownByDefault);
  return (
    <section className="timeline" aria-label="Timeline">
      <h3>Timeline {timeline.isFetching && <span className="muted">(updating…)</span>}</h3>
      {timeline.isPending && <p className="muted">Loading the timeline…</p>}
      {timeline.error && <p role="alert" className="error">Timeline unavailable: {errorMessage(timeline.error)} <button type="button" onClick={() => void timeline.refetch()}>Retry</button></p>}
      {timeline.isSuccess && entries.length === 0 && <p className="muted">Nothing recorded yet.</p>}
      {entries.length > shown.length && <button type="button" onClick={() => setShowAll(true)}>Show all {entries.length} entries</button>}
      <ol className="timeline-list">
        {shown.map((entry, index) => (
          <li key={`${entry.at}-${index}`} className={`timeline-${entry.kind}`}>
            <time dateTime={new Date(entry.at).toISOString()}>{dateTime(entry.at)}</time>{' '}
            <span className="badge">{entry.kind}</span> {entry.summary}
            {entry.actor && <span className="muted"> — {entry.actor}</span>}
            {entry.detail && <div className="muted detail"><code>{entry.detail}</code></div>}
          </li>
        ))}
      </ol>
    </section>
  );
}
