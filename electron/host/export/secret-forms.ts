// The forms a configured secret may take in output besides itself: base64 and base64url at each of
// the three byte alignments (the characters that depend only on the secret's bytes), percent-encoded
// and JSON-escaped. Derived once per export; the result is sorted, so it is deterministic.

/** Shorter derived forms are not searched for: they would match ordinary text by chance. */
const MIN_DERIVED_LENGTH = 8;

/** The base64 characters of `bytes` when they start at byte offset `align` (0–2) of a longer blob. */
function base64Inner(bytes: Buffer, align: number, encoding: 'base64' | 'base64url'): string {
  const encoded = Buffer.concat([Buffer.alloc(align), bytes]).toString(encoding);
  const startBits = 8 * align;
  const endBits = 8 * (align + bytes.length);
  return encoded.slice(Math.ceil(startBits / 6), Math.floor(endBits / 6));
}

const hex = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
const lowerHex = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

function percentForms(secret: string): string[] {
  let component: string;
  try {
    component = encodeURIComponent(secret);
  } catch {
    return []; // a lone surrogate: cannot appear percent-encoded
  }
  const strict = component.replace(/[!'()*]/g, hex);
  return [component, lowerHex(component), strict, lowerHex(strict), component.replace(/%20/g, '+')];
}

function jsonForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const ascii = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [json, json.replaceAll('/', '\\/'), ascii, ascii.replaceAll('/', '\\/')];
}

function derivedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = [0, 1, 2].flatMap((align) => [base64Inner(bytes, align, 'base64'), base64Inner(bytes, align, 'base64url')]);
  return [...base64, ...percentForms(secret), ...jsonForms(secret)];
}

/** Every string to search for: the secrets themselves and their encoded forms, longest first. */
export function searchForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    forms.add(secret);
    for (const form of derivedForms(secret)) if (form.length >= MIN_DERIVED_LENGTH) forms.add(form);
  }
  return [...forms].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}
