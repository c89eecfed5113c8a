// Tail controls: follow, search (next/previous), timestamps, line wrapping, copy.
import type { KeyboardEvent } from 'react';

export interface TailToolbarProps {
  follow: boolean;
  onFollow: () => void;
  query: string;
  onQuery: (query: string) => void;
  matchCount: number;
  capped: boolean;
  /** Index of the hit last jumped to, or null. */
  currentMatch: number | null;
  onNext: () => void;
  onPrevious: () => void;
  showTimes: boolean;
  onShowTimes: (value: boolean) => void;
  wrap: boolean;
  onWrap: (value: boolean) => void;
  onCopyVisible: () => void;
  onCopyAll: () => void;
}

export function TailToolbar(props: TailToolbarProps) {
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (event.shiftKey) props.onPrevious();
    else props.onNext();
  };
  const count = `${props.matchCount}${props.capped ? '+' : ''}`;
  return (
    <div className="tail-toolbar toolbar">
      <button type="button" aria-pressed={props.follow} onClick={props.onFollow} title="Keep the newest line in view">Follow</button>
      <input type="search" aria-label="Search output" placeholder="Search output" value={props.query} onChange={(e) => props.onQuery(e.target.value)} onKeyDown={onSearchKey} />
      <button type="button" onClick={props.onPrevious} disabled={props.matchCount === 0}>Previous match</button>
      <button type="button" onClick={props.onNext} disabled={props.matchCount === 0}>Next match</button>
      {props.query !== '' && (
        <span role="status" className="muted match-count">
          {props.matchCount === 0 ? 'No matches' : props.currentMatch === null ? `${count} matches` : `${props.currentMatch + 1} of ${count}`}
        </span>
      )}
      <label className="check"><input type="checkbox" checked={props.showTimes} onChange={(e) => props.onShowTimes(e.target.checked)} /> Timestamps</label>
      <label className="check"><input type="checkbox" checked={props.wrap} onChange={(e) => props.onWrap(e.target.checked)} /> Wrap lines</label>
      <button type="button" onClick={props.onCopyVisible}>Copy visible lines</button>
      <button type="button" onClick={props.onCopyAll}>Copy all lines</button>
    </div>
  );
}
