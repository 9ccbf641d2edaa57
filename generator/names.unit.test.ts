import { describe, expect, it } from 'vitest';
import { NATIONS, foldToAscii } from './names.ts';
import { PLACES } from './places.ts';

describe('names', () => {
  it('folds native spellings to the Latin ones of a passport', () => {
    expect(foldToAscii('Bērziņš')).toBe('Berzins');
    expect(foldToAscii('Łódź Gołębiowska')).toBe('Lodz Golebiowska');
    expect(foldToAscii('Šťastná Dvořáková')).toBe('Stastna Dvorakova');
    expect(foldToAscii('Žukauskaitė')).toBe('Zukauskaite');
    expect(foldToAscii('Müller Weiß', true)).toBe('Mueller Weiss');
  });

  it('gives every nation gendered native and Latin forms, Cyrillic for Ukraine, and a country', () => {
    for (const nation of NATIONS) {
      expect(
        PLACES.some((p) => p.country.code === nation.code),
        nation.code,
      ).toBe(true);
      for (const sex of ['MALE', 'FEMALE'] as const) {
        expect(nation.given[sex].length).toBeGreaterThan(5);
        for (const form of [...nation.given[sex], ...nation.surnames[sex]]) expect(form.latin).toMatch(/^[A-Za-z' -]+$/);
      }
    }
    const ukraine = NATIONS.find((n) => n.code === 'UA');
    expect(ukraine?.surnames.FEMALE.find((f) => f.latin === 'Kovalova')?.native).toBe('Ковальова');
    expect(ukraine?.given.MALE.every((f) => /^\p{Script=Cyrillic}+$/u.test(f.native))).toBe(true);
    const latvia = NATIONS.find((n) => n.code === 'LV');
    expect(latvia?.surnames.FEMALE.map((f) => f.native)).toContain('Bērziņa');
  });
});
