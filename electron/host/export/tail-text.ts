// Turns a process's tail entries into readable text, stdout and stderr apart. Each stream's text is
// joined whole (every entry, inside the export window or not) and redacted before anything splits it
// (tail-redact.ts): markers, the window cut. Losses, truncation, reconnects and the exit are marker
// lines in both streams; a reconnect or exit loses nothing, so its line waits for the end of the
// current line instead of splitting it.
import { describeGap, type TailEntry } from '../../../shared/domain';
import type { Redactor } from './redact';
import { renderStream } from './tail-redact';

export interface TailText {
  stdout: string;
  stderr: string;
}

export interface TailWindow {
  from: number;
  to: number;
}

export const EARLIER_OMITTED = '[… earlier output outside the export window omitted …]';
export const LATER_OMITTED = '[… later output outside the export window omitted …]';

/** Visible text of the joined stream, or a marker line at a position in it. */
export type Piece =
  | { kind: 'text'; start: number; end: number }
  /** `soft`: nothing was lost here, so the line may wait for the end of the current line. */
  | { kind: 'line'; line: string; at: number; soft: boolean };

/** Where output was lost (a gap or truncation): the text on either side is not contiguous. */
export interface Cut {
  at: number;
}

export interface StreamPlan {
  /** The stream's whole text, every text entry joined (also those outside the window). */
  text: string;
  /** What the export shows, in order. */
  pieces: Piece[];
  /** Losses, in and outside the window. */
  cuts: Cut[];
}

export function markerLine(entry: Exclude<TailEntry, { kind: 'text' }>): string {
  switch (entry.kind) {
    case 'gap':
      return `[… ${describeGap(entry.lostBytes, entry.reason)} …]`;
    case 'truncated':
      return `[… ${entry.droppedBytes} bytes truncated …]`;
    case 'reconnect':
      return `[… stream reconnected (${entry.count}): ${entry.reason} …]`;
    case 'exit': {
      const code = entry.exitCode === null ? 'no exit code' : `exit code ${entry.exitCode}`;
      return `[… process exited: ${code}${entry.signal === null ? '' : `, signal ${entry.signal}`} …]`;
    }
  }
}

class PlanBuilder {
  private readonly chunks: string[] = [];
  private length = 0;
  readonly pieces: Piece[] = [];
  readonly cuts: Cut[] = [];

  text(text: string, visible: boolean): void {
    const start = this.length;
    this.chunks.push(text);
    this.length += text.length;
    if (!visible || text.length === 0) return;
    const last = this.pieces.at(-1);
    if (last?.kind === 'text' && last.end === start) last.end = this.length;
    else this.pieces.push({ kind: 'text', start, end: this.length });
  }

  line(line: string, soft: boolean): void {
    this.pieces.push({ kind: 'line', line, at: this.length, soft });
  }

  cut(): void {
    this.cuts.push({ at: this.length });
  }

  build(): StreamPlan {
    return { text: this.chunks.join(''), pieces: this.pieces, cuts: this.cuts };
  }
}

/** Plans both streams of `entries` (in order); with a window, entries outside it are left out and say so. */
export function planTail(entries: readonly TailEntry[], window?: TailWindow): { stdout: StreamPlan; stderr: StreamPlan } {
  const streams = { stdout: new PlanBuilder(), stderr: new PlanBuilder() };
  const both = [streams.stdout, streams.stderr];
  const inside = (at: number): boolean => !window || (at >= window.from && at <= window.to);
  if (window && entries.some((e) => e.at < window.from)) for (const s of both) s.line(EARLIER_OMITTED, false);
  for (const entry of entries) {
    const visible = inside(entry.at);
    if (entry.kind === 'text') {
      streams[entry.stream].text(entry.text, visible);
      continue;
    }
    const loss = entry.kind === 'gap' || entry.kind === 'truncated';
    for (const s of both) {
      if (loss) s.cut();
      if (visible) s.line(markerLine(entry), !loss);
    }
  }
  if (window && entries.some((e) => e.at > window.to)) for (const s of both) s.line(LATER_OMITTED, false);
  return { stdout: streams.stdout.build(), stderr: streams.stderr.build() };
}

/**
 * Renders `entries`; with a window, cut to it. With a redactor, each stream is redacted (and the
 * redactions recorded at `<path>.stdout` / `<path>.stderr`) before it is cut or split by markers.
 */
export function renderTail(entries: readonly TailEntry[], window?: TailWindow, redaction?: { redactor: Redactor; path: string }): TailText {
  const plan = planTail(entries, window);
  const at = (stream: 'stdout' | 'stderr') => (redaction ? { redactor: redaction.redactor, path: `${redaction.path}.${stream}` } : undefined);
  return { stdout: renderStream(plan.stdout, at('stdout')), stderr: renderStream(plan.stderr, at('stderr')) };
}
