import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_TOKENS,
  SEARCHED_DESCRIPTION_CHARS,
  SEARCHED_FIELD_CHARS,
  foldSearchPrefix,
  foldSearchText,
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
  it('searches the first characters of a description once folded, cut on a code point', () => {
    const long = 'A'.repeat(SEARCHED_DESCRIPTION_CHARS - 1) + '😀tail';
    const { text } = searchTokens([searchedDescription(long)]);
    expect([...text]).toHaveLength(SEARCHED_DESCRIPTION_CHARS);
    expect(text.endsWith('a😀')).toBe(true);
    expect(text.isWellFormed()).toBe(true);
    expect(searchTokens([searchedDescription('Short')]).text).toBe('short');
    expect(searchedDescription(null)).toBeNull();
  });

  it('searches the first 1,000 folded characters of every other field', () => {
    const { text, tokens } = searchTokens(['Anna', cjk(MAX_SEARCH_TOKENS * 2)]);
    const [name, long] = text.split('\n') as [string, string];
    expect(name).toBe('anna');
    expect([...long]).toHaveLength(SEARCHED_FIELD_CHARS);
    expect(long).toBe([...cjk(MAX_SEARCH_TOKENS * 2)].slice(0, SEARCHED_FIELD_CHARS).join(''));
    expect(tokens.length).toBeLessThanOrEqual(SEARCHED_FIELD_CHARS + 2);
    expect(tokens).toContain('ann');
  });

  it('cuts after normalization: a megabyte of U+FDFA (18 characters each under NFKD) gives 1,000, in linear time', () => {
    const timed = (length: number): { ms: number; keys: ReturnType<typeof searchTokens> } => {
      let best = Infinity;
      let keys = searchTokens([]);
      for (let round = 0; round < 3; round++) {
        const name = '\uFDFA'.repeat(length) + String(round);
        const began = performance.now();
        keys = searchTokens([name]);
        best = Math.min(best, performance.now() - began);
      }
      return { ms: best, keys };
    };
    const { keys } = timed(1_000_000);
    expect([...keys.text]).toHaveLength(SEARCHED_FIELD_CHARS);
    expect(keys.text.startsWith(foldSearchText('\uFDFA'))).toBe(true);
    expect(keys.tokens.length).toBeLessThanOrEqual(SEARCHED_FIELD_CHARS + 2);
    // Only what the cut needs is folded: a name a thousand times longer costs about the same.
    expect(timed(1_000_000).ms).toBeLessThan(20 * timed(1_000).ms + 20);
  });

  it('folds as much of a field as it takes when normalization shrinks it (combining marks alone fold to nothing)', () => {
    const marks = '\u0301'.repeat(500_000);
    expect(foldSearchPrefix(`${marks}Zā${'b'.repeat(2_000)}`, 10)).toBe('zabbbbbbbb');
    expect(foldSearchPrefix(marks, 10)).toBe('');
    expect(foldSearchPrefix('  Ab  C  ', 10)).toBe('ab c');
    expect(foldSearchPrefix('ab cdef', 3)).toBe('ab');
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
