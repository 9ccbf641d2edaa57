import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName } from '../../schemas/api/endpoints.ts';
import { LISTING_PLANS } from './indexPlan.ts';
import type { DocumentPath } from './documentPath.ts';
import type { CoachDocument, DancerDocument } from './documents.ts';
import { declaredFilters, LISTING_FILTERS, type FilterDeclaration } from './listingFilters.ts';

const LIST_ENDPOINT: Record<keyof typeof LISTING_FILTERS, EndpointName> = {
  competitions: 'competitions',
  dancers: 'dancers',
  coaches: 'coaches',
  judges: 'judges',
  clubs: 'clubs',
};

describe('LISTING_FILTERS', () => {
  it('declares only parameters the listing endpoint accepts', () => {
    for (const [listing, filters] of Object.entries(LISTING_FILTERS)) {
      const accepted = Object.keys(ENDPOINTS[LIST_ENDPOINT[listing as keyof typeof LISTING_FILTERS]].query.properties);
      for (const name of Object.keys(filters)) expect(accepted, `${listing}.${name}`).toContain(name);
    }
  });

  it('is where the index plan takes its leading filters from, in declaration order', () => {
    expect(LISTING_PLANS.dancers.leading).toEqual([
      { filter: 'search', path: 'q.tokens', sorted: false },
      { filter: 'clubId', path: 'q.clubIds', sorted: false },
      { filter: 'coachId', path: 'q.coachIds', sorted: false },
      { filter: 'countryId', path: 'country.id', sorted: true },
      { filter: 'country', path: 'q.country', sorted: true },
    ]);
    expect(LISTING_PLANS.competitions.leading).toEqual([{ filter: 'search', path: 'q.tokens', sorted: false }]);
  });

  it("reads paths of the listing's own documents: another path does not compile", () => {
    // @ts-expect-error no dancer has `q.hasPartnr`
    const misspelt: FilterDeclaration<DocumentPath<DancerDocument>> = { path: 'q.hasPartnr', match: 'equals' };
    // @ts-expect-error `danceClass` is a dancer's, not a coach's
    const foreign: FilterDeclaration<DocumentPath<CoachDocument>> = { path: 'danceClass', match: 'equals' };
    const nested: FilterDeclaration<DocumentPath<DancerDocument>> = { path: 'country.id', match: 'equals' };
    expect([misspelt.path, foreign.path, nested.path]).toEqual(['q.hasPartnr', 'danceClass', 'country.id']);
    for (const [listing, filters] of Object.entries(LISTING_FILTERS)) {
      expect(declaredFilters(listing as keyof typeof LISTING_FILTERS)).toEqual(Object.entries(filters));
    }
  });
});
