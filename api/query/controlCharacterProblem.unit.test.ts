import { describe, expect, it } from 'vitest';
import { literalPattern } from '../resources/filterClauses.ts';
import { parseQuery } from './parseQuery.ts';

describe('control characters in query parameters', () => {
  it('answers 400 naming each text parameter that holds NUL or another control character', () => {
    for (const value of ['%00', 'ab%00', '%00ab', 'a%00b', 'ab%01', 'ab%1B%5B31m', 'ab%7F', 'ab%C2%85', 'ab%C2%9F']) {
      for (const name of ['search', 'city', 'country']) {
        const parsed = parseQuery('competitions', `${name}=${value}&order=desc`);
        expect(parsed.ok, `${name}=${value}`).toBe(false);
        expect(!parsed.ok && parsed.details, `${name}=${value}`).toEqual([
          expect.stringMatching(new RegExp(`^${name}: must not contain control characters`)),
        ]);
      }
    }
    expect(parseQuery('clubs', 'search=ab%00&city=x%00')).toMatchObject({
      ok: false,
      details: [expect.stringMatching(/^search: /), expect.stringMatching(/^city: /)],
    });
    expect(parseQuery('competitions', 'type=cup%00')).toMatchObject({
      ok: false,
      details: [expect.stringMatching(/^type: must not contain control/)],
    });
  });

  it('keeps white space, which is trimmed and folded like a space, and other text', () => {
    for (const value of ['ab%09cd', '%0Aab%0D%0A', 'ab%0Bcd%0Ccd', 'J%C4%81nis', 'a%E2%80%AEb', 'ab%C2%A0']) {
      expect(parseQuery('competitions', `search=${value}`).ok, value).toBe(true);
    }
  });
});

describe('literalPattern (the $regex of a search or a prefix)', () => {
  it('escapes metacharacters and writes control characters as \\xHH escapes, never raw', () => {
    expect(literalPattern('a.b(c')).toBe('a\\.b\\(c');
    expect(literalPattern('a\u0000b\u001f\u007f\u0085')).toBe('a\\x00b\\x1f\\x7f\\x85');
    const pattern = literalPattern('x\u0000.y');
    expect([...pattern].every((char) => char.charCodeAt(0) >= 0x20)).toBe(true);
    expect(new RegExp(pattern, 'u').test('ax\u0000.yb')).toBe(true);
    expect(new RegExp(pattern, 'u').test('ax\u0000zyb')).toBe(false);
  });
});
