import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonInPieces } from './jsonInPieces.ts';

describe('jsonInPieces', () => {
  it('gives the bytes of JSON.stringify, whatever the members', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()))), (value) => {
        expect([...jsonInPieces(value)].join('')).toBe(JSON.stringify(value));
      }),
    );
  });

  it('makes a long list of an object member in pieces of bounded size', () => {
    const cities = Array.from({ length: 5_000 }, (_, i) => ({
      name: `City ${i} ${'x'.repeat(100)}`,
      countryCode: 'LV',
      competitionsCount: i,
    }));
    const body = { data: { countries: [], cities, types: [{ code: 'A', label: 'a' }] } };
    const pieces = [...jsonInPieces(body)];
    expect(pieces.join('')).toBe(JSON.stringify(body));
    expect(pieces.length).toBeGreaterThan(20);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(20_000);
  });
});
