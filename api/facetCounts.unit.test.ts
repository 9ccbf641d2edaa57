import { describe, expect, it } from 'vitest';
import { FacetCounts, talliedKeys } from './facetCounts.ts';

describe('talliedKeys', () => {
  it('answers the base filter of a default listing from the tallies', () => {
    expect(talliedKeys('competitions', { visible: true })).toEqual({ facet: 'visible', keys: [true] });
    expect(talliedKeys('dancers', { registryState: { $in: ['REGISTRY', 'ARCHIVE', 'REGISTRY'] } })).toEqual({
      facet: 'state',
      keys: ['REGISTRY', 'ARCHIVE'],
    });
  });

  it('leaves any other filter to the database', () => {
    expect(talliedKeys('competitions', { $and: [{ visible: true }, { status: 'open' }] })).toBeNull();
    expect(talliedKeys('competitions', { visible: false })).toBeNull();
    expect(talliedKeys('dancers', { registryState: 'REGISTRY' })).toBeNull();
    expect(talliedKeys('dancers', { registryState: { $in: ['REGISTRY'], $ne: 'ARCHIVE' } })).toBeNull();
    expect(talliedKeys('clubs', { registryState: { $in: ['REGISTRY'] }, 'q.country': 'lv' })).toBeNull();
  });
});

describe('FacetCounts', () => {
  it('sums the shares of a key and lists only the keys counted more than zero times', () => {
    const counts = new FacetCounts();
    counts.add('class', 1, 2);
    counts.add('class', 1, -2);
    counts.add('class', 3, 1);
    counts.add('class', 3, 1);
    expect(counts.of<number>('class').rows()).toEqual([{ key: 3, count: 2 }]);
    expect(counts.of<number>('category').rows()).toEqual([]);
  });
});
