// One line of a tail: stdout and stderr visibly distinct and labelled for screen readers; markers
// (gaps, truncation, reconnects, exits) set apart; search hits highlighted. A wrapped row has no
// fixed height: the virtualiser measures it through `measureRef`.
import { memo, type Ref } from 'react';
import { formatLineTime, type TailLine } from '../../tail/tail-lines';
import { splitByQuery } from '../../tail/tail-search';

export interface TailLineRowProps {
  line: TailLine;
  index: number;
  top: number;
  /** Fixed row height; null when the row wraps and is measured instead. */
  height: number | null;
  lineHeight: number;
  measureRef?: Ref<HTMLDivElement> | undefined;
  showTime: boolean;
  query: string;
  /** Start of the current search hit when it is on this line. */
  currentStart: number | null;
}

export const TailLineRow = memo(function TailLineRow({ line, index, top, height, lineHeight, measureRef, showTime, query, currentStart }: TailLineRowProps) {
  const kindClass = line.kind === 'text' ? line.stream : `marker ${line.tone}`;
  const style = { transform: `translateY(${top}px)`, lineHeight: `${lineHeight}px`, ...(height === null ? {} : { height }) };
  return (
    <div ref={measureRef} className={`line ${kindClass}${height === null ? ' wrap' : ''}`} data-index={index} style={style}>
      {showTime && <span className="line-time">{formatLineTime(line.at)} </span>}
      <span className="sr-only">{line.kind === 'text' ? `${line.stream}: ` : 'marker: '}</span>
      <span className="line-text">
        {splitByQuery(line.text, query).map((piece) =>
          piece.match ? (
            <mark key={piece.start} className={piece.start === currentStart ? 'current' : undefined} aria-current={piece.start === currentStart ? 'true' : undefined}>
              {piece.text}
            </mark>
          ) : (
            piece.text
          ),
        )}
      </span>
    </div>
  );
});
