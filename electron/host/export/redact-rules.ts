// The redaction rules. Each finds spans (start, end, kind) in the original text; the Redactor
// merges overlapping spans, so a secret found by several rules is redacted once.
import { searchForms } from './secret-forms';

export const redactionKinds = [
  'api-key', 'authorization-header', 'x-api-key-header', 'bearer-token', 'sk-token', 'env-value',
  'secret-pattern', 'url-credentials', 'url-query', 'fragment',
] as const;
export type RedactionKind = (typeof redactionKinds)[number];

export interface Span { start: number; end: number; kind: RedactionKind }
export type Rule = (text: string, spans: Span[]) => void;

/** Names whose values are secrets (as a substring, any case). */
const SENSITIVE_NAME = /KEY|TOKEN|SECRET|PASS|PWD|COOKIE|SESSION|DSN|CREDENTIAL|AUTH|PRIVATE|SIGNATURE|SALT|(?:^|[^A-Za-z])PAT(?:$|[^A-Za-z])/i;
/** Well-known names that match SENSITIVE_NAME but hold no secret (the shell's working directories). */
const HARMLESS_NAME = /^(?:OLD)?PWD$/i;

export function isSensitiveName(name: string): boolean {
  return SENSITIVE_NAME.test(name) && !HARMLESS_NAME.test(name);
}

export function matchAll(pattern: RegExp, text: string, each: (match: RegExpExecArray) => void): void {
  // Always global, never sticky: a configured pattern is searched for everywhere in the text.
  const flags = `${pattern.flags.replace(/[gy]/g, '')}g`;
  const re = new RegExp(pattern.source, flags);
  for (let match = re.exec(text); match; match = re.exec(text)) {
    if (match[0].length === 0) re.lastIndex += 1;
    else each(match);
  }
}

/** Redacts the value group (the last capture) of every match, trimmed of trailing blanks. */
function valueRule(pattern: RegExp, kind: RedactionKind): Rule {
  return (text, spans) => matchAll(pattern, text, (match) => {
    const value = match[match.length - 1] ?? '';
    const trimmed = value.trimEnd();
    if (trimmed.length === 0) return;
    const start = match.index + match[0].length - value.length;
    spans.push({ start, end: start + trimmed.length, kind });
  });
}

const lineEnd = (text: string, from: number): number => {
  const at = text.slice(from).search(/[\r\n]/);
  return at < 0 ? text.length : from + at;
};

/** The end of a quoted value whose opening quote (`quote`, escaped as `\"` when `escaped`) ends at `from`. */
function quotedEnd(text: string, from: number, quote: string, escaped: boolean): { contentEnd: number; end: number } {
  const stop = lineEnd(text, from);
  if (escaped) {
    const close = text.slice(from, stop).indexOf(`\\${quote}`);
    return close < 0 ? { contentEnd: stop, end: stop } : { contentEnd: from + close, end: from + close + 2 };
  }
  for (let at = from; at < stop; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === quote) return { contentEnd: at, end: at + 1 };
  }
  return { contentEnd: stop, end: stop }; // unterminated: to the end of the line (fail closed)
}

type ValueForm = 'assign' | 'json' | 'yaml';

/**
 * The span of the value starting at `at`. `assign` (NAME=value, --flag value): quotes included,
 * unquoted up to a blank or shell operator. `json`/`yaml` (name: value): inside the quotes; an
 * unquoted value runs to `,}]` (json) or the end of the line (yaml).
 */
function valueSpan(text: string, at: number, form: ValueForm): { start: number; end: number } | null {
  const escapedQuote = /^\\(["'])/.exec(text.slice(at, at + 2));
  const quote = escapedQuote?.[1] ?? (text[at] === '"' || text[at] === "'" ? text[at] : undefined);
  if (quote !== undefined) {
    const open = at + (escapedQuote ? 2 : 1);
    const { contentEnd, end } = quotedEnd(text, open, quote, escapedQuote !== null);
    return form === 'assign' ? { start: at, end } : { start: open, end: contentEnd };
  }
  const rest = text.slice(at, lineEnd(text, at));
  const stop = form === 'assign' ? rest.search(/[\s"'`;&|]|\\["']/) : form === 'json' ? rest.search(/[,}\]]|\\?["']/) : rest.length;
  const value = (stop < 0 ? rest : rest.slice(0, stop)).trimEnd();
  return value.length === 0 ? null : { start: at, end: at + value.length };
}

/** `NAME=value` for sensitive names, and any `export NAME=value`. */
const assignmentRule: Rule = (text, spans) => matchAll(/(\bexport\s+)?\b([A-Za-z_][A-Za-z0-9_]*)=/g, text, (match) => {
  if (match[1] === undefined && !isSensitiveName(match[2] ?? '')) return;
  const span = valueSpan(text, match.index + match[0].length, 'assign');
  if (span) spans.push({ ...span, kind: 'env-value' });
});

/** `--name value` and `--name=value` for sensitive flag names. */
const flagRule: Rule = (text, spans) => matchAll(/(?<![\w-])--?([A-Za-z][A-Za-z0-9_-]*)(=|[ \t]+)(?!-)/g, text, (match) => {
  if (!isSensitiveName(match[1] ?? '')) return;
  const span = valueSpan(text, match.index + match[0].length, 'assign');
  if (span) spans.push({ ...span, kind: 'env-value' });
});

/** `name: value` (YAML), `"name": "value"` (JSON, also JSON-escaped inside another string). */
const colonRule: Rule = (text, spans) => matchAll(/(?<![A-Za-z0-9_.-])(\\?["']?)([A-Za-z_][A-Za-z0-9_.-]*)\1[ \t]*:(?!:|\/\/)[ \t]*/g, text, (match) => {
  if (!isSensitiveName(match[2] ?? '')) return;
  const span = valueSpan(text, match.index + match[0].length, match[1] === '' ? 'yaml' : 'json');
  if (span) spans.push({ ...span, kind: 'env-value' });
});

/** Optional (possibly JSON-escaped) quote around a header name or value. */
const Q = `(?:\\\\?["'])?`;
const HEADER_VALUE = `((?:[^\\r\\n"'\\\\]|\\\\(?!["']))+)`;

export function buildRules(secrets: readonly string[], secretPatterns: readonly RegExp[]): Rule[] {
  const forms = searchForms(secrets);
  return [
    (text, spans) => {
      for (const form of forms) {
        for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + form.length)) {
          spans.push({ start: at, end: at + form.length, kind: 'api-key' });
        }
      }
    },
    valueRule(new RegExp(`\\b(?:proxy-)?authorization${Q}\\s*[:=]\\s*${Q}${HEADER_VALUE}`, 'gi'), 'authorization-header'),
    valueRule(new RegExp(`\\bx-api-key${Q}\\s*[:=]\\s*${Q}${HEADER_VALUE}`, 'gi'), 'x-api-key-header'),
    valueRule(/\bbearer\s+([A-Za-z0-9._~+/=-]+)/gi, 'bearer-token'),
    valueRule(/(?<![A-Za-z0-9])(sk[-_][A-Za-z0-9_-]{6,})/gi, 'sk-token'),
    valueRule(/(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#@:"'<>\\]+(?::[^\s@"'<>\\]*)?)(?=@)/g, 'url-credentials'),
    assignmentRule,
    flagRule,
    colonRule,
    ...secretPatterns.map((pattern): Rule => (text, spans) => matchAll(pattern, text, (match) => {
      spans.push({ start: match.index, end: match.index + match[0].length, kind: 'secret-pattern' });
    })),
  ];
}
