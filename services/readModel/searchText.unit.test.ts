import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_TOKENS,
  SEARCHED_DESCRIPTION_CHARS,
  TOKEN_MEMO_BYTES,
  searchTokens,
  searchedDescription,
  tokenMemoBytes,
} from './searchText.ts';

// Pseudo-random CJK characters (a seeded linear congruential walk): almost no 3-gram repeats, the
// worst case for the number of keys.
const cjk = (length: number, seed = 1): string => {
  let x = seed;
  return Array.from({ length }, () => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    return String.fromCodePoint(0x4e00 + (x % 20_000));
  }).join('');
};

describe('bounded search keys', () => {
  it('searches the first characters of a description, cut on a code point', () => {
    const long = 'a'.repeat(SEARCHED_DESCRIPTION_CHARS - 1) + '😀tail';
    const cut = searchedDescription(long)!;
    expect(cut.length).toBe(SEARCHED_DESCRIPTION_CHARS - 1);
    expect(cut.isWellFormed()).toBe(true);
    expect(searchedDescription('short')).toBe('short');
    expect(searchedDescription(null)).toBeNull();
  });

  it('keeps at most MAX_SEARCH_TOKENS keys, the first fields first', () => {
    const { tokens } = searchTokens(['Anna', cjk(MAX_SEARCH_TOKENS * 2)]);
    expect(tokens.length).toBe(MAX_SEARCH_TOKENS);
    expect(tokens).toContain('ann');
  });

  it('holds the memo to its byte bound however many long texts pass', () => {
    for (let i = 0; i < 200; i++) searchTokens([`competition ${i}`, cjk(6_000, i + 1)]);
    expect(tokenMemoBytes()).toBeGreaterThan(0);
    expect(tokenMemoBytes()).toBeLessThanOrEqual(TOKEN_MEMO_BYTES.max);
  });

  it('keeps the keys of empty fields (a club named "")', () => {
    expect(searchTokens([''])).toEqual({ tokens: [], text: '' });
    expect(searchTokens([null, ''])).toEqual({ tokens: [], text: '' });
  });

  it('gives the same keys from the memo as computed', () => {
    const first = searchTokens(['Jānis Ozols', 'Rīga']);
    const again = searchTokens(['Jānis Ozols', 'Rīga']);
    expect(again).toEqual(first);
    again.tokens.push('mutated');
    expect(searchTokens(['Jānis Ozols', 'Rīga']).tokens).not.toContain('mutated');
  });
});
