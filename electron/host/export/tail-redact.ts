// Renders a planned stream (tail-text.ts): the joined text is redacted first, then cut to what the
// export shows and split by marker lines. A redaction that a marker or the window would split is
// shown once, where it begins to be visible. Where output was lost, the token fragments on either
// side of the loss could be pieces of a secret no rule recognises any more, so they are masked too.
import { marker, type Redactor, type Span } from './redact';
import type { Cut, StreamPlan } from './tail-text';

/** Characters a token (a key, a password, …) can be made of. */
const isTokenChar = (c: string | undefined): boolean => c !== undefined && !/[\s"'`()<>[\]{},;]/.test(c);
/** A fragment that could be the rest of an unknown secret: long, with letters and digits. */
const looksSecret = (run: string): boolean => run.length >= 8 && /[A-Za-z]/.test(run) && /[0-9]/.test(run);
/** Shorter ends of a known secret are not looked for: they would match ordinary words. */
const MIN_SECRET_END = 4;

function startsWithSecretEnd(run: string, secrets: readonly string[]): boolean {
  return secrets.some((secret) => {
    for (let k = Math.min(secret.length - 1, run.length); k >= MIN_SECRET_END; k -= 1) if (run.startsWith(secret.slice(-k))) return true;
    return false;
  });
}

/**
 * At each loss: the token before it (it may have continued in the lost bytes) and the token after
 * it when the loss was mid-line, when it looks like a secret, or when it starts like the end of a
 * configured secret.
 */
export function fragmentSpans(text: string, cuts: readonly Cut[], secrets: readonly string[]): Span[] {
  const spans: Span[] = [];
  for (const { at } of cuts) {
    let start = at;
    while (start > 0 && isTokenChar(text[start - 1])) start -= 1;
    if (start < at) spans.push({ start, end: at, kind: 'fragment' });
    let end = at;
    while (end < text.length && isTokenChar(text[end])) end += 1;
    const run = text.slice(at, end);
    const midLine = at > 0 && text[at - 1] !== '\n';
    if (run.length > 0 && (midLine || looksSecret(run) || startsWithSecretEnd(run, secrets))) spans.push({ start: at, end, kind: 'fragment' });
  }
  return spans;
}

/** Where a soft marker line at `at` goes: after the end of its line, never inside a redaction. */
function lineEndAfter(text: string, at: number, spans: readonly Span[]): number {
  if (at === 0 || text[at - 1] === '\n') return at;
  let from = at;
  for (;;) {
    const newline = text.indexOf('\n', from);
    if (newline < 0) return Number.POSITIVE_INFINITY;
    const inside = spans.find((s) => s.start <= newline && newline + 1 < s.end);
    if (!inside) return newline + 1;
    from = inside.end;
  }
}

class StreamWriter {
  output = '';
  readonly markers: Span[] = [];
  /** The first span not yet written past (writes only move forward). */
  private next = 0;
  /** The span whose marker was written last (a span split by a marker or the window shows once). */
  private lastEmitted = -1;

  constructor(private readonly text: string, private readonly spans: readonly Span[]) {}

  /** Writes text[from, to), each redaction in it replaced by its marker (once per redaction). */
  write(from: number, to: number): void {
    let at = from;
    while (this.next < this.spans.length && (this.spans[this.next]?.end ?? 0) <= at) this.next += 1;
    for (let index = this.next; index < this.spans.length; index += 1) {
      const span = this.spans[index];
      if (!span || span.start >= to) break;
      if (span.start > at) this.output += this.text.slice(at, span.start);
      if (index > this.lastEmitted) {
        this.lastEmitted = index;
        const replacement = marker(span.kind);
        this.markers.push({ kind: span.kind, start: this.output.length, end: this.output.length + replacement.length });
        this.output += replacement;
      }
      at = Math.max(at, Math.min(span.end, to));
    }
    if (at < to) this.output += this.text.slice(at, to);
  }

  line(line: string): void {
    if (this.output.length > 0 && !this.output.endsWith('\n')) this.output += '\n';
    this.output += `${line}\n`;
  }
}

/** The stream's export text; with a redactor, redacted (and the redactions recorded at `path`). */
export function renderStream(plan: StreamPlan, redaction?: { redactor: Redactor; path: string }): string {
  const { text } = plan;
  const spans = redaction ? redaction.redactor.spans(text, fragmentSpans(text, plan.cuts, redaction.redactor.secrets)) : [];
  const writer = new StreamWriter(text, spans);
  let pending: { line: string; target: number }[] = [];
  const flush = (upTo: number): void => {
    const due = pending.filter((p) => p.target <= upTo);
    pending = pending.filter((p) => p.target > upTo);
    for (const p of due) writer.line(p.line);
  };
  for (const piece of plan.pieces) {
    if (piece.kind === 'line') {
      if (piece.soft) {
        pending.push({ line: piece.line, target: lineEndAfter(text, piece.at, spans) });
      } else {
        flush(Number.POSITIVE_INFINITY);
        writer.line(piece.line);
      }
      continue;
    }
    flush(piece.start);
    let at = piece.start;
    for (const next of [...new Set(pending.map((p) => p.target))].sort((a, b) => a - b)) {
      if (next > piece.end) break;
      writer.write(at, next);
      at = next;
      flush(next);
    }
    writer.write(at, piece.end);
  }
  flush(Number.POSITIVE_INFINITY);
  if (redaction) redaction.redactor.recordMarkers(writer.output, writer.markers, redaction.path);
  return writer.output;
}

/** A stream rendered when the export's redaction pass reaches it, so its hits are recorded in order. */
export class PendingStream {
  constructor(private readonly plan: StreamPlan) {}

  render(redactor: Redactor, path: string): string {
    return renderStream(this.plan, { redactor, path });
  }
}
