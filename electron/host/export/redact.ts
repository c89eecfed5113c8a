// Redaction of secrets from export text. Every rule (redact-rules.ts) finds spans in the original
// text; overlapping spans are merged (so no part of a secret survives) and each merged span becomes
// [REDACTED:<kind>].
import { buildRules, redactionKinds, type RedactionKind, type Rule, type Span } from './redact-rules';

export { redactionKinds, type RedactionKind, type Span } from './redact-rules';

export interface RedactionOptions {
  /** Exact secret values (API keys of configured profiles, …); their encoded forms are found too. */
  secrets: readonly string[];
  /** Anything they match is redacted whole. */
  secretPatterns: readonly RegExp[];
}

export interface RedactionHit {
  kind: RedactionKind;
  /** Where in the export, e.g. `leases[lease-1].processes[p1].stdout`. */
  path: string;
  /** A little of the redacted text around the marker; never contains the secret. */
  context: string;
}

const CONTEXT_CHARS = 24;

export const marker = (kind: RedactionKind): string => `[REDACTED:${kind}]`;

/** Sorts and merges spans; a merged span keeps the kind of the first (earliest, longest, first found). */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

export class Redactor {
  readonly hits: RedactionHit[] = [];
  /** The configured secrets, for telling whether a fragment could be part of one. */
  readonly secrets: readonly string[];
  private readonly rules: Rule[];

  constructor(opts: RedactionOptions) {
    this.secrets = [...new Set(opts.secrets.filter((s) => s.length > 0))].sort();
    this.rules = buildRules(this.secrets, opts.secretPatterns);
  }

  /** Redacts `text` found at `path`, recording every redaction. */
  text(text: string, path: string): string {
    const { output, markers } = this.apply(text);
    this.recordMarkers(output, markers, path);
    return output;
  }

  /** Redacts without recording (for labels derived from values that are redacted elsewhere). */
  peek(text: string): string {
    return this.apply(text).output;
  }

  /** The merged spans every rule finds in `text`, plus `extra` ones. */
  spans(text: string, extra: readonly Span[] = []): Span[] {
    const spans: Span[] = [];
    for (const rule of this.rules) rule(text, spans);
    return mergeSpans([...spans, ...extra]);
  }

  /** Records the markers placed in `output` (an already redacted text at `path`). */
  recordMarkers(output: string, markers: readonly Span[], path: string): void {
    for (const { kind, start, end } of markers) this.hits.push({ kind, path, context: contextAround(output, start, end) });
  }

  /** Records a redaction made outside the text rules (e.g. credentials stripped from a URL). */
  record(kind: RedactionKind, path: string, context: string): void {
    this.hits.push({ kind, path, context });
  }

  summary(): { count: number; kinds: { kind: RedactionKind; count: number }[] } {
    const counts = new Map<RedactionKind, number>();
    for (const hit of this.hits) counts.set(hit.kind, (counts.get(hit.kind) ?? 0) + 1);
    const kinds = redactionKinds.filter((kind) => counts.has(kind)).map((kind) => ({ kind, count: counts.get(kind) ?? 0 }));
    return { count: this.hits.length, kinds };
  }

  private apply(text: string): { output: string; markers: Span[] } {
    const spans = this.spans(text);
    if (spans.length === 0) return { output: text, markers: [] };
    let output = '';
    let from = 0;
    const markers: Span[] = [];
    for (const span of spans) {
      output += text.slice(from, span.start);
      const replacement = marker(span.kind);
      markers.push({ kind: span.kind, start: output.length, end: output.length + replacement.length });
      output += replacement;
      from = span.end;
    }
    return { output: output + text.slice(from), markers };
  }
}

function contextAround(text: string, start: number, end: number): string {
  const from = Math.max(0, start - CONTEXT_CHARS);
  const to = Math.min(text.length, end + CONTEXT_CHARS);
  const body = text.slice(from, to).replace(/\r?\n/g, '⏎');
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}
