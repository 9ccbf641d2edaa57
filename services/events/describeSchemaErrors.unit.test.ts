import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { describePath, describeSchemaErrors } from './describeSchemaErrors.ts';

describe('describePath', () => {
  it('writes a JSON pointer as a property path', () => {
    expect(describePath('')).toBe('');
    expect(describePath('/data/dates/start')).toBe('data.dates.start');
    expect(describePath('/a~1b/c~0d')).toBe('a/b.c~d');
  });

  it('brackets array indexes only, when it can see the value', () => {
    const root = { data: { categoryIds: ['x'], banner: { horizontal: { '640': 5 } } } };
    expect(describePath('/data/categoryIds/0', root)).toBe('data.categoryIds[0]');
    expect(describePath('/data/banner/horizontal/640', root)).toBe('data.banner.horizontal.640');
  });
});

describe('describeSchemaErrors', () => {
  it('says something even with no errors to describe', () => {
    expect(describeSchemaErrors(null)).toBe('does not match its schema');
  });
});

describe('describeSchemaErrors on a message with very many errors', () => {
  /** `n` errors of one path, as ajv reports an object of `n` unexpected keys with allErrors. */
  const errorsOnOnePath = (n: number): ErrorObject[] =>
    Array.from({ length: n }, (_, i) => ({
      keyword: i % 2 === 0 ? 'additionalProperties' : 'required',
      instancePath: '/data',
      schemaPath: '#/additionalProperties',
      params: i % 2 === 0 ? { additionalProperty: `k${i}` } : { missingProperty: `m${i}` },
    }));

  /** The best time of several runs on `n` errors against the best on `2n`, run in turns so that a load on the machine weighs on both. */
  const doublingRatio = (n: number): number => {
    const once = errorsOnOnePath(n);
    const twice = errorsOnOnePath(2 * n);
    const best = [Infinity, Infinity];
    for (let round = 0; round < 5; round++) {
      [once, twice].forEach((errors, i) => {
        const began = performance.now();
        describeSchemaErrors(errors);
        best[i] = Math.min(best[i]!, performance.now() - began);
      });
    }
    return best[1]! / best[0]!;
  };

  it('costs time linear in the errors: twice the errors, at most about twice the time', () => {
    // The best of a few tries: a garbage collection or another process that lands in a timing
    // (the machine is shared) can double it, while a quadratic cost is four times on every try.
    const ratios: number[] = [];
    for (let attempt = 0; attempt < 4 && !ratios.some((r) => r <= 2.5); attempt++) ratios.push(doublingRatio(75_000));
    expect(Math.min(...ratios), `ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}`).toBeLessThanOrEqual(2.5);
  }, 60_000);

  it('names the first few and counts the rest', () => {
    const described = describeSchemaErrors(errorsOnOnePath(150_000));
    expect(described).toMatch(/^data: missing required fields "m1", "m3", .*; data: unexpected field "k0"; .*; and 74991 more$/);
  });
});
