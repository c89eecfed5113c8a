// Why a lease is unproven: each reason with the call that showed it, the reply, and when.
import type { UnprovenReason } from '../../../../shared/domain';
import { clockTime } from '../format';

export function EvidenceList({ reasons }: { reasons: readonly UnprovenReason[] }) {
  if (reasons.length === 0) return null;
  return (
    <ul className="evidence" aria-label="Evidence">
      {reasons.map((reason) => (
        <li key={`${reason.at}-${reason.call}-${reason.processId ?? ''}`}>
          <span className="reason">{reason.reason}</span>
          {reason.processId && <span className="muted"> (process {reason.processId})</span>}
          <div className="muted evidence-call">
            <code>{reason.call}</code> → <code>{reason.reply}</code> at <time dateTime={new Date(reason.at).toISOString()}>{clockTime(reason.at)}</time>
          </div>
        </li>
      ))}
    </ul>
  );
}
