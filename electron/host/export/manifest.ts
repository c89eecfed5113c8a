// The export's SHA-256 manifest: one hash per section over its canonical JSON (keys sorted
// recursively, no whitespace, UTF-8), so anyone can re-check a file with any JSON library.
import { createHash } from 'node:crypto';

export const MANIFEST_SECTIONS = ['scope', 'environment', 'leases', 'operatorActions', 'redactions'] as const;
export type ManifestSection = (typeof MANIFEST_SECTIONS)[number];
export const CANONICALIZATION = 'JSON with object keys sorted by code unit, no whitespace, UTF-8';

export interface Manifest {
  algorithm: 'sha256';
  canonicalization: string;
  sections: Record<ManifestSection, string>;
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function buildManifest(document: Record<ManifestSection, unknown>): Manifest {
  const sections = {} as Record<ManifestSection, string>;
  for (const name of MANIFEST_SECTIONS) sections[name] = sha256Hex(canonicalJson(document[name]));
  return { algorithm: 'sha256', canonicalization: CANONICALIZATION, sections };
}

/** Re-checks an export file: the names of sections whose hash does not match (empty = intact). */
export function verifyExport(json: string): { ok: boolean; mismatched: string[] } {
  const parsed = JSON.parse(json) as Record<string, unknown> & { manifest?: { sections?: Record<string, unknown> } };
  const listed = parsed.manifest?.sections ?? {};
  const mismatched = MANIFEST_SECTIONS.filter((name) => listed[name] !== sha256Hex(canonicalJson(parsed[name])));
  return { ok: mismatched.length === 0, mismatched };
}
