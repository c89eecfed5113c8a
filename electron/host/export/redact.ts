// Redaction of secrets from export text. Every rule finds spans in the original text; overlapping
// spans are merged (so no part of a secret survives) and each merged span becomes [REDACTED:<kind>].
export const redactionKinds = [
  'api-key', 'authorization-header', 'x-api-key-header', 'bearer-token', 'sk-token', 'env-value',
  'secret-pattern', 'url-credentials', 'url-query',
] as const;
export type RedactionKind = (typeof redactionKinds)[number];

export interface RedactionOptions {
  /** Exact secret values (API keys of configured profiles, …). */
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

interface Span { start: number; end: number; kind: RedactionKind }
type Rule = (text: string, spans: Span[]) => void;

const SENSITIVE_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|PRIVATE/i;
const CONTEXT_CHARS = 24;

export const marker = (kind: RedactionKind): string => `[REDACTED:${kind}]`;

function matchAll(pattern: RegExp, text: string, each: (match: RegExpExecArray) => void): void {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  const re = new RegExp(pattern.source, flags);
  for (let match = re.exec(text); match; match = re.exec(text)) {
    if (match[0].length === 0) re.lastIndex += 1;
    else each(match);
  }
}

/** Redacts the value group (the last capture) of every match, trimmed of trailing blanks. */
function valueRule(pattern: RegExp, kind: RedactionKind | ((match: RegExpExecArray) => RedactionKind | null)): Rule {
  return (text, spans) => matchAll(pattern, text, (match) => {
    const value = match[match.length - 1] ?? '';
    const trimmed = value.trimEnd();
    const resolved = typeof kind === 'function' ? kind(match) : kind;
    if (trimmed.length === 0 || resolved === null) return;
    const start = match.index + match[0].length - value.length;
    spans.push({ start, end: start + trimmed.length, kind: resolved });
  });
}

function buildRules(opts: RedactionOptions): Rule[] {
  const secrets = [...new Set(opts.secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  return [
    (text, spans) => {
      for (const secret of secrets) {
        for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length)) {
          spans.push({ start: at, end: at + secret.length, kind: 'api-key' });
        }
      }
    },
    valueRule(/\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?([^\r\n"']+)/gi, 'authorization-header'),
    valueRule(/\bx-api-key["']?\s*[:=]\s*["']?([^\r\n"']+)/gi, 'x-api-key-header'),
    valueRule(/\bbearer\s+([A-Za-z0-9._~+/=-]{8,})/gi, 'bearer-token'),
    valueRule(/\b(sk-[A-Za-z0-9_-]{6,})/g, 'sk-token'),
    // NAME=value for sensitive names, and any `export NAME=value`.
    valueRule(/(\bexport\s+)?\b([A-Za-z_][A-Za-z0-9_]*)=("[^"\r\n]*"|'[^'\r\n]*'|[^\s"'`;&|]+)/g, (match) =>
      match[1] !== undefined || SENSITIVE_NAME.test(match[2] ?? '') ? 'env-value' : null),
    ...opts.secretPatterns.map((pattern): Rule => (text, spans) => matchAll(pattern, text, (match) => {
      spans.push({ start: match.index, end: match.index + match[0].length, kind: 'secret-pattern' });
    })),
  ];
}

function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

export class Redactor {
  readonly hits: RedactionHit[] = [];
  private readonly rules: Rule[];

  constructor(opts: RedactionOptions) {
    this.rules = buildRules(opts);
  }

  /** Redacts `text` found at `path`, recording every redaction. */
  text(text: string, path: string): string {
    const { output, markers } = this.apply(text);
    for (const { kind, start, end } of markers) this.hits.push({ kind, path, context: contextAround(output, start, end) });
    return output;
  }

  /** Redacts without recording (for labels derived from values that are redacted elsewhere). */
  peek(text: string): string {
    return this.apply(text).output;
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
    const spans: Span[] = [];
    for (const rule of this.rules) rule(text, spans);
    if (spans.length === 0) return { output: text, markers: [] };
    let output = '';
    let from = 0;
    const markers: Span[] = [];
    for (const span of mergeSpans(spans)) {
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
