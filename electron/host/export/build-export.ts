// The incident export: pure and deterministic. Input is validated, the document is built, every
// string in it is redacted, then the manifest hashes the redacted sections.
import { buildBody, type ExportBody, type IncidentDocument } from './document';
import { renderHtml } from './html';
import { incidentInputSchema, type IncidentInput } from './incident-input';
import { buildManifest } from './manifest';
import { Redactor, type RedactionHit, type RedactionKind, type RedactionOptions } from './redact';
import { PendingStream } from './tail-redact';

export interface IncidentExport {
  json: string;
  html: string;
  /** For the JSON file; the HTML rendering goes in `htmlFileName`. */
  fileName: string;
  htmlFileName: string;
}

export interface RedactionPreview {
  count: number;
  /** Leases the export would contain. */
  leases: number;
  /** Per kind: how many, and up to three masked samples. */
  kinds: { kind: RedactionKind; count: number; samples: string[] }[];
  /** Every redaction: kind, where, masked context. */
  items: RedactionHit[];
}

const SAMPLES_PER_KIND = 3;

/** Builds the export. Throws (a zod error) if `input` is not a valid IncidentInput. */
export function buildIncidentExport(input: IncidentInput, opts: RedactionOptions): IncidentExport {
  const { document } = redactedDocument(input, opts);
  const base = baseFileName(document);
  return {
    json: `${JSON.stringify(document, null, 2)}\n`,
    html: renderHtml(document),
    fileName: `${base}.json`,
    htmlFileName: `${base}.html`,
  };
}

/** What the export would redact: per redaction its kind, where, and a little masked context. */
export function previewRedactions(input: IncidentInput, opts: RedactionOptions): RedactionPreview {
  const { document, redactor } = redactedDocument(input, opts);
  const { count, kinds } = redactor.summary();
  return {
    count,
    leases: document.leases.length,
    kinds: kinds.map(({ kind, count: n }) => ({
      kind,
      count: n,
      samples: redactor.hits.filter((hit) => hit.kind === kind).slice(0, SAMPLES_PER_KIND).map((hit) => hit.context),
    })),
    items: redactor.hits,
  };
}

function redactedDocument(input: IncidentInput, opts: RedactionOptions): { document: IncidentDocument; redactor: Redactor } {
  const parsed = incidentInputSchema.parse(input);
  const redactor = new Redactor(opts);
  const body = redactStrings(buildBody(parsed, redactor), '', redactor) as ExportBody;
  const redactions = redactor.summary();
  const manifest = buildManifest({ ...body, redactions });
  return { document: { ...body, redactions, manifest }, redactor };
}

/**
 * Redacts every string value; array elements with an id are addressed by it in hit paths. Process
 * output is rendered here, redacted whole before markers and the window cut split it.
 */
function redactStrings(value: unknown, path: string, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value, path);
  if (value instanceof PendingStream) return value.render(redactor, path);
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => redactStrings(item, `${path}[${labelOf(item, redactor) ?? index}]`, redactor));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactStrings(item, path === '' ? key : `${path}.${key}`, redactor);
    return out;
  }
  return value;
}

function labelOf(item: unknown, redactor: Redactor): string | null {
  if (item === null || typeof item !== 'object') return null;
  const { id, processId } = item as { id?: unknown; processId?: unknown };
  const label = typeof id === 'string' ? id : typeof processId === 'string' ? processId : null;
  return label === null ? null : redactor.peek(label);
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

function baseFileName(document: IncidentDocument): string {
  const when = stamp(Date.parse(document.generatedAt));
  const { scope } = document;
  const what = scope.kind === 'lease' ? `lease-${scope.leaseId}` : `window-${stamp(scope.from)}-${stamp(scope.to)}`;
  return `leasewatch-incident-${what}-${when}`.replace(/[^A-Za-z0-9_.-]/g, '_');
}
