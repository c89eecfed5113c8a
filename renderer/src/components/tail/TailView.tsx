// The live output tail of one process, virtualised (100,000 lines stay smooth). Follows the newest
// line until the operator scrolls up; "Follow" resumes. Search, timestamps, line wrapping (rows are
// then measured, not fixed) and copy on demand.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { errorMessage } from '../../api/error-message';
import { useTailSubscription } from '../../api/use-tail-subscription';
import { usePlatform } from '../../platform/platform-context';
import { tailKey, useTailStore } from '../../state/tail-store';
import { useUiStore } from '../../state/ui-store';
import { emptyTailLines, lineText, type TailLine } from '../../tail/tail-lines';
import { findTailMatches } from '../../tail/tail-search';
import { TailLineRow } from './TailLineRow';
import { TailToolbar } from './TailToolbar';

export const tailLineHeight = 18;
const noTail = emptyTailLines();
const pauseKeys = new Set(['ArrowUp', 'PageUp', 'Home']);

function copyText(lines: readonly TailLine[], withTime: boolean): string {
  return lines.map((line) => lineText(line, withTime)).join('\n');
}

export function TailView({ leaseId, processId }: { leaseId: string; processId: string }) {
  const key = tailKey(leaseId, processId);
  const status = useTailSubscription(leaseId, processId, key);
  const tail = useTailStore((s) => s.tails[key]) ?? noTail;
  const platform = usePlatform();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const [showTimes, setShowTimes] = useState(false);
  const wrap = useUiStore((s) => s.wrapTailLines);
  const setWrap = useUiStore((s) => s.setWrapTailLines);
  const [query, setQuery] = useState('');
  /** The search hit last jumped to; null until the operator asks for next or previous. */
  const [current, setCurrent] = useState<number | null>(null);
  const [copyNote, setCopyNote] = useState<string | null>(null);
  const lines = tail.lines;
  const search = useMemo(() => findTailMatches(tail.lines, query), [tail, query]);
  const currentIndex = current === null ? null : Math.min(current, search.matches.length - 1);
  const currentMatch = currentIndex === null ? null : search.matches[currentIndex] ?? null;
  const virtualizer = useVirtualizer({ count: lines.length, getScrollElement: () => scrollRef.current, estimateSize: () => tailLineHeight, overscan: 30 });

  // Switching wrapping on or off changes every row's height: forget the measured sizes.
  useLayoutEffect(() => {
    virtualizer.measure();
  }, [virtualizer, wrap]);

  // Following: after every render with new lines (or rows that grew when measured), the newest
  // line is in view.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (follow && element) element.scrollTop = element.scrollHeight;
  }, [follow, tail, totalSize]);

  const onScroll = (): void => {
    const element = scrollRef.current;
    if (!element) return;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= tailLineHeight;
    if (atBottom !== follow) setFollow(atBottom);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (pauseKeys.has(event.key)) setFollow(false);
    if (event.key === 'End') setFollow(true);
  };

  const goToMatch = (index: number): void => {
    const count = search.matches.length;
    if (count === 0) return;
    const wrapped = ((index % count) + count) % count;
    const match = search.matches[wrapped];
    setCurrent(wrapped);
    setFollow(false);
    const element = scrollRef.current;
    if (!match || !element) return;
    if (wrap) virtualizer.scrollToIndex(match.line, { align: 'center' });
    else element.scrollTop = Math.max(0, match.line * tailLineHeight - element.clientHeight / 2 + tailLineHeight / 2);
  };

  const copy = (which: 'visible' | 'all'): void => {
    const element = scrollRef.current;
    const top = element?.scrollTop ?? 0;
    const bottom = top + (element?.clientHeight ?? 0);
    const chosen = which === 'all'
      ? lines
      : virtualizer.getVirtualItems().filter((item) => item.end > top && item.start < bottom).flatMap((item) => lines[item.index] ?? []);
    platform.clipboard.writeText(copyText(chosen, showTimes)).then(
      () => setCopyNote(`Copied ${chosen.length} ${chosen.length === 1 ? 'line' : 'lines'}`),
      (error: unknown) => setCopyNote(`Copy failed: ${errorMessage(error)}`),
    );
  };

  return (
    <section className="tail" aria-label={`Output of ${processId}`}>
      <TailToolbar
        follow={follow}
        onFollow={() => setFollow(true)}
        query={query}
        onQuery={(value) => { setQuery(value); setCurrent(null); }}
        matchCount={search.matches.length}
        capped={search.capped}
        currentMatch={currentIndex}
        onNext={() => goToMatch(currentIndex === null ? 0 : currentIndex + 1)}
        onPrevious={() => goToMatch(currentIndex === null ? -1 : currentIndex - 1)}
        showTimes={showTimes}
        onShowTimes={setShowTimes}
        wrap={wrap}
        onWrap={setWrap}
        onCopyVisible={() => copy('visible')}
        onCopyAll={() => copy('all')}
      />
      <p className="muted tail-status" role="status">
        {status.state === 'connecting' && 'Connecting to the output… '}
        {status.state === 'retrying' && <span className="error">Output stream interrupted: {status.error} Reconnecting… </span>}
        {lines.length} lines{tail.droppedLines > 0 ? ` (${tail.droppedLines} older lines dropped from this view)` : ''}
        {!follow && ' · paused'}
        {copyNote && ` · ${copyNote}`}
      </p>
      <div
        ref={scrollRef}
        className={`tail-lines${wrap ? ' wrapped' : ''}`}
        role="log"
        aria-live="off"
        aria-label={`Output lines of ${processId}`}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={(event) => { if (event.deltaY < 0) setFollow(false); }}
        onKeyDown={onKeyDown}
      >
        {lines.length === 0 && status.state !== 'connecting' && <p className="muted tail-empty">No output yet.</p>}
        <div className="tail-spacer" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((item) => {
            const line = lines[item.index];
            if (!line) return null;
            return (
              <TailLineRow
                key={item.index}
                line={line}
                index={item.index}
                top={item.start}
                height={wrap ? null : tailLineHeight}
                lineHeight={tailLineHeight}
                measureRef={wrap ? virtualizer.measureElement : undefined}
                showTime={showTimes}
                query={query}
                currentStart={currentMatch?.line === item.index ? currentMatch.start : null}
              />
            );
          })}
        </div>
      </div>
    </section>
  );
}
