import { describe, expect, it } from 'vitest';
import { findTailMatches, splitByQuery } from './tail-search';
import type { TailLine } from './tail-lines';

const line = (text: string): TailLine => ({ kind: 'text', stream: 'stdout', text, at: 0 });

describe('tail search', () => {
  it('finds every occurrence, case-insensitive, in order', () => {
    const { matches } = findTailMatches([line('Error here'), line('none'), line('error, error')], 'error');
    expect(matches).toEqual([{ line: 0, start: 0 }, { line: 2, start: 0 }, { line: 2, start: 7 }]);
  });

  it('stops at the limit and says so', () => {
    const result = findTailMatches([line('aaaa')], 'a', 2);
    expect(result).toEqual({ matches: [{ line: 0, start: 0 }, { line: 0, start: 1 }], capped: true });
  });

  it('cuts a line into plain and matched pieces', () => {
    expect(splitByQuery('one ERR two err', 'err').map((p) => [p.text, p.match])).toEqual([['one ', false], ['ERR', true], [' two ', false], ['err', true]]);
  });
});
