import { BSON } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { bsonUpperBound, checkBudget, DOCUMENT_BUDGETS, DocumentOverBudget, documentBytes } from './documentBudgets.ts';

const samples: object[] = [
  {},
  { _id: 'c1', name: 'Rīgas kauss 🏆', n: 3, big: 2 ** 40, ok: true, none: null, at: new Date(0) },
  { _id: 'c2', entries: Array.from({ length: 2_000 }, (_, i) => ({ entryId: `e${i}`, categoryIds: ['a', 'b', 'ççç'] })) },
  { _id: 'c3', nested: { a: { b: { c: ['x', 1, { d: '\u{10FFFF}'.repeat(10) }] } } } },
];

describe('document budgets', () => {
  it('bounds BSON sizes from above, never under what the serializer counts', () => {
    for (const doc of samples) expect(bsonUpperBound(doc)).toBeGreaterThanOrEqual(BSON.calculateObjectSize(doc));
  });

  it('counts exactly only what the bound cannot prove small', () => {
    const small = samples[2]!;
    expect(documentBytes(small, DOCUMENT_BUDGETS.state)).toBe(bsonUpperBound(small));
    expect(documentBytes(small, 1_000)).toBe(BSON.calculateObjectSize(small));
  });

  it('refuses the first document past its kind budget, naming it', () => {
    const ids = Array.from({ length: 25_000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const grown = { _id: 'competition-1', entries: Array.from({ length: 4 }, (_, i) => ({ entryId: `e${i}`, categoryIds: ids })) };
    expect(() => checkBudget('state', 'competition_states', [samples[1]!, grown])).toThrow(DocumentOverBudget);
    try {
      checkBudget('state', 'competition_states', [grown]);
    } catch (error) {
      expect(error).toMatchObject({ kind: 'state', id: 'competition-1', budget: DOCUMENT_BUDGETS.state });
      expect((error as DocumentOverBudget).bytes).toBe(BSON.calculateObjectSize(grown));
    }
    expect(() => checkBudget('read', 'competitions', [grown])).not.toThrow();
  });

  it('keeps every budget far below the 16 MiB the database allows', () => {
    for (const budget of Object.values(DOCUMENT_BUDGETS)) expect(budget).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(DOCUMENT_BUDGETS.read).toBeGreaterThanOrEqual(DOCUMENT_BUDGETS.state + 1024 * 1024);
  });
});
