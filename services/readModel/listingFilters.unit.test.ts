import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName } from '../../schemas/api/endpoints.ts';
import { LISTING_PLANS, type ReadListing } from './indexPlan.ts';
import type { DocumentPath } from './documentPath.ts';
import type { CoachDocument, DancerDocument } from './documents.ts';
import { declaredFilters, LISTING_FILTERS, leadingFilters, listingFilters, type FilterDeclaration } from './listingFilters.ts';
import { READ_MODEL_FORMAT, SERVED_FORMATS } from './readModelFormat.ts';

const LIST_ENDPOINT: Record<ReadListing, EndpointName> = {
  competitions: 'competitions',
  dancers: 'dancers',
  coaches: 'coaches',
  judges: 'judges',
  clubs: 'clubs',
};
const LISTINGS = Object.keys(LIST_ENDPOINT) as ReadListing[];

describe('LISTING_FILTERS', () => {
  it('has a table for every format the API serves, and for no other', () => {
    expect(Object.keys(LISTING_FILTERS).map(Number)).toEqual([...SERVED_FORMATS]);
    expect(SERVED_FORMATS.at(-1)).toBe(READ_MODEL_FORMAT);
    expect(listingFilters()).toBe(LISTING_FILTERS[READ_MODEL_FORMAT]);
    expect(() => listingFilters(READ_MODEL_FORMAT + 1)).toThrow(RangeError);
    expect(() => declaredFilters('dancers', 0)).toThrow(RangeError);
  });

  it('declares only parameters the listing endpoint accepts, in every format', () => {
    for (const format of SERVED_FORMATS) {
      for (const listing of LISTINGS) {
        const accepted = Object.keys(ENDPOINTS[LIST_ENDPOINT[listing]].query.properties);
        for (const name of Object.keys(listingFilters(format)[listing])) expect(accepted, `${format} ${listing}.${name}`).toContain(name);
      }
    }
  });

  it('serves the current format and the one before it, and no older one', () => {
    expect(SERVED_FORMATS).toEqual([READ_MODEL_FORMAT - 1, READ_MODEL_FORMAT]);
    expect(() => listingFilters(READ_MODEL_FORMAT - 2)).toThrow(RangeError);
  });

  it('is where the index plan takes its leading filters from, in declaration order', () => {
    for (const format of SERVED_FORMATS) {
      expect(LISTING_PLANS[format]!.dancers.leading).toEqual([
        { filter: 'search', path: 's.tokens', sorted: false, indexedAs: 'search' },
        { filter: 'clubId', path: 'q.clubIds', sorted: false, indexedAs: 'clubId' },
        { filter: 'coachId', path: 'q.coachIds', sorted: false, indexedAs: 'coachId' },
        { filter: 'countryId', path: 'q.country', sorted: true, indexedAs: 'country' },
        { filter: 'country', path: 'q.country', sorted: true, indexedAs: 'country' },
      ]);
      expect(LISTING_PLANS[format]!.competitions.leading).toEqual([
        { filter: 'search', path: 's.tokens', sorted: false, indexedAs: 'search' },
      ]);
      for (const listing of LISTINGS) expect(LISTING_PLANS[format]![listing].leading).toEqual(leadingFilters(listing, format));
    }
  });

  it("countryId matches its key in q.country and leads the country filter's indexes; every listing searches `s`", () => {
    for (const format of SERVED_FORMATS) {
      for (const listing of ['dancers', 'coaches', 'judges', 'clubs'] as const) {
        const { countryId, country } = listingFilters(format)[listing];
        expect(countryId, listing).toEqual({ path: 'q.country', match: 'countryIdKey', leads: 'sorted', sharesIndexesOf: 'country' });
        expect(country, listing).toEqual({ path: 'q.country', match: 'folded', leads: 'sorted' });
      }
      for (const listing of LISTINGS)
        expect(listingFilters(format)[listing].search).toEqual({ path: 's.tokens', match: 'search', leads: 'unsorted' });
    }
  });

  it('a filter shares the indexes of a leading filter of the same listing that reads the same path the same way', () => {
    for (const format of SERVED_FORMATS) {
      for (const listing of LISTINGS) {
        const leading = leadingFilters(listing, format);
        for (const l of leading.filter((f) => f.indexedAs !== f.filter)) {
          const owner = leading.find((f) => f.filter === l.indexedAs);
          expect(owner, `${format} ${listing}.${l.filter}`).toMatchObject({ path: l.path, sorted: l.sorted, indexedAs: l.indexedAs });
        }
      }
    }
  });

  it("reads paths of the listing's own documents: another path does not compile", () => {
    // @ts-expect-error no dancer has `q.hasPartnr`
    const misspelt: FilterDeclaration<DocumentPath<DancerDocument>> = { path: 'q.hasPartnr', match: 'equals' };
    // @ts-expect-error `danceClass` is a dancer's, not a coach's
    const foreign: FilterDeclaration<DocumentPath<CoachDocument>> = { path: 'danceClass', match: 'equals' };
    const nested: FilterDeclaration<DocumentPath<DancerDocument>> = { path: 'country.id', match: 'equals' };
    expect([misspelt.path, foreign.path, nested.path]).toEqual(['q.hasPartnr', 'danceClass', 'country.id']);
    for (const format of SERVED_FORMATS) {
      for (const listing of LISTINGS) expect(declaredFilters(listing, format)).toEqual(Object.entries(listingFilters(format)[listing]));
    }
  });
});
