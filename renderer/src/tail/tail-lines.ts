// Turns tail entries (chunks of text and markers) into display lines, incrementally: each batch
// costs only its own size, never the whole tail. stdout and stderr keep their own partial lines,
// so interleaved chunks never glue two streams into one line. Losses are explicit marker lines.
// Bounded in lines and in characters; a line longer than `maxLineChars` (a progress bar that only
// uses "\r", say) is shown in pieces of that size, so no single line grows without end.
import { describeGap, type OutputStreamName, type TailEntry } from '../../../shared/domain';

export type TailLine =
  | { readonly kind: 'text'; readonly stream: OutputStreamName; readonly text: string; readonly at: number }
  | { readonly kind: 'marker'; readonly tone: 'gap' | 'info'; readonly text: string; readonly at: number };

/**
 * The lines of one tail. `lines` is append-only and shared with the next value: after
 * `appendTailEntries`, use only the value it returned (the previous one is handed over).
 */
export interface TailLines {
  readonly lines: readonly TailLine[];
  /** Lines this view dropped from its front to stay bounded (reported by a marker line). */
  readonly droppedLines: number;
  /** Index in `lines` of each stream's unterminated line, if any. */
  readonly open: Readonly<Record<OutputStreamName, number | null>>;
  /** Characters in all lines. */
  readonly chars: number;
}

export interface TailLimits {
  readonly maxLines: number;
  readonly maxChars: number;
  readonly maxLineChars: number;
}

export const defaultTailLimits: TailLimits = { maxLines: 200_000, maxChars: 32 * 1024 * 1024, maxLineChars: 64 * 1024 };

export function emptyTailLines(): TailLines {
  return { lines: [], droppedLines: 0, open: { stdout: null, stderr: null }, chars: 0 };
}

/** `text` in pieces of at most `size` characters ("" stays one empty piece). */
function pieces(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const result: string[] = [];
  for (let at = 0; at < text.length; at += size) result.push(text.slice(at, at + size));
  return result;
}

function markerFor(entry: Exclude<TailEntry, { kind: 'text' }>): TailLine {
  switch (entry.kind) {
    case 'gap':
      return { kind: 'marker', tone: 'gap', text: `[${describeGap(entry.lostBytes, entry.reason)}]`, at: entry.at };
    case 'truncated':
      return { kind: 'marker', tone: 'gap', text: `[${entry.droppedBytes} bytes truncated: oldest output dropped from this tail]`, at: entry.at };
    case 'reconnect':
      return { kind: 'marker', tone: 'info', text: `[stream reconnected (${entry.count}): ${entry.reason}]`, at: entry.at };
    case 'exit':
      return { kind: 'marker', tone: 'info', text: entry.signal ? `[exited on ${entry.signal}]` : `[exited with code ${String(entry.exitCode)}]`, at: entry.at };
  }
}

function droppedMarker(count: number, at: number): TailLine {
  return { kind: 'marker', tone: 'gap', text: `[${count} older lines dropped from this view]`, at };
}

/** Appends a batch; O(batch size), plus an occasional trim when the tail outgrows its limits. */
export function appendTailEntries(tail: TailLines, entries: readonly TailEntry[], limits: TailLimits = defaultTailLimits): TailLines {
  const lines = tail.lines as TailLine[];
  const open: Record<OutputStreamName, number | null> = { ...tail.open };
  let chars = tail.chars;
  const push = (line: TailLine): void => {
    lines.push(line);
    chars += line.text.length;
  };
  for (const entry of entries) {
    if (entry.kind !== 'text') {
      push(markerFor(entry));
      if (entry.kind === 'gap' || entry.kind === 'exit') {
        open.stdout = null;
        open.stderr = null;
      }
      continue;
    }
    const parts = entry.text.split('\n');
    const last = parts.length - 1;
    parts.forEach((part, index) => {
      const openIndex = open[entry.stream];
      const current = index === 0 && openIndex !== null ? lines[openIndex] : undefined;
      if (current?.kind === 'text' && openIndex !== null) {
        const [head = '', ...rest] = pieces(current.text + part, limits.maxLineChars);
        chars += head.length - current.text.length;
        lines[openIndex] = { ...current, text: head };
        for (const piece of rest) {
          push({ kind: 'text', stream: entry.stream, text: piece, at: entry.at });
          open[entry.stream] = lines.length - 1;
        }
      } else if (index === last && part === '') {
        // Nothing after the last "\n" (or an empty chunk): no line is pending.
        open[entry.stream] = null;
        return;
      } else {
        for (const piece of pieces(part, limits.maxLineChars)) push({ kind: 'text', stream: entry.stream, text: piece, at: entry.at });
        open[entry.stream] = lines.length - 1;
      }
      // Every part but the last was ended by a "\n".
      if (index < last) open[entry.stream] = null;
    });
  }
  return trim({ lines, droppedLines: tail.droppedLines, open, chars }, limits);
}

/** Drops the oldest lines once the tail is 10 % over a bound, replacing them with one marker. */
function trim(tail: TailLines, limits: TailLimits): TailLines {
  const lines = tail.lines as TailLine[];
  const overLines = lines.length > limits.maxLines + Math.ceil(limits.maxLines / 10);
  const overChars = tail.chars > limits.maxChars + Math.ceil(limits.maxChars / 10);
  if (!overLines && !overChars) return tail;
  const hasMarker = tail.droppedLines > 0;
  let keepFrom = Math.max(0, lines.length - limits.maxLines + 1); // room for the marker line
  let chars = tail.chars;
  for (let i = 0; i < keepFrom; i += 1) chars -= lines[i]?.text.length ?? 0;
  while (chars > limits.maxChars && keepFrom < lines.length - 1) {
    chars -= lines[keepFrom]?.text.length ?? 0;
    keepFrom += 1;
  }
  if (keepFrom === 0) return tail;
  const dropped = tail.droppedLines + keepFrom - (hasMarker ? 1 : 0);
  const marker = droppedMarker(dropped, lines[keepFrom]?.at ?? 0);
  lines.splice(0, keepFrom, marker);
  const shift = (index: number | null): number | null => (index === null || index < keepFrom ? null : index - keepFrom + 1);
  return { lines, droppedLines: dropped, open: { stdout: shift(tail.open.stdout), stderr: shift(tail.open.stderr) }, chars: chars + marker.text.length };
}

/** All lines of a complete list of entries (one batch). */
export function toTailLines(entries: readonly TailEntry[]): TailLine[] {
  return appendTailEntries(emptyTailLines(), entries).lines as TailLine[];
}

export function lineText(line: TailLine, withTime: boolean): string {
  const prefix = withTime ? `${formatLineTime(line.at)} ` : '';
  const stream = line.kind === 'text' && line.stream === 'stderr' ? '[stderr] ' : '';
  return `${prefix}${stream}${line.text}`;
}

export function formatLineTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}
