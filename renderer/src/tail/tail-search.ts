// Search within a tail: where the query occurs (case-insensitive), and how to cut a line into
// plain and highlighted pieces.
import type { TailLine } from './tail-lines';

export interface TailMatch {
  readonly line: number;
  readonly start: number;
}

export const maxTailMatches = 10_000;

/** Every occurrence, in order, up to `limit` (the count says when it stopped early). */
export function findTailMatches(lines: readonly TailLine[], query: string, limit = maxTailMatches): { matches: TailMatch[]; capped: boolean } {
  const matches: TailMatch[] = [];
  if (query === '') return { matches, capped: false };
  const needle = query.toLowerCase();
  for (let line = 0; line < lines.length; line += 1) {
    const text = lines[line]?.text.toLowerCase() ?? '';
    let from = text.indexOf(needle);
    while (from !== -1) {
      if (matches.length >= limit) return { matches, capped: true };
      matches.push({ line, start: from });
      from = text.indexOf(needle, from + needle.length);
    }
  }
  return { matches, capped: false };
}

export interface TextPiece {
  readonly text: string;
  readonly match: boolean;
  readonly start: number;
}

/** Cuts `text` around each occurrence of `query`. */
export function splitByQuery(text: string, query: string): TextPiece[] {
  if (query === '') return [{ text, match: false, start: 0 }];
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  const pieces: TextPiece[] = [];
  let cursor = 0;
  let from = lower.indexOf(needle);
  while (from !== -1) {
    if (from > cursor) pieces.push({ text: text.slice(cursor, from), match: false, start: cursor });
    pieces.push({ text: text.slice(from, from + needle.length), match: true, start: from });
    cursor = from + needle.length;
    from = lower.indexOf(needle, cursor);
  }
  if (cursor < text.length) pieces.push({ text: text.slice(cursor), match: false, start: cursor });
  return pieces;
}
