import type { ReadListing } from './indexPlan.ts';

/**
 * How a query parameter matches its document path: `equals` the value; `folded` the folded
 * value (case and diacritics ignored); `foldedPrefix` an anchored prefix of it; `anyOf` one of
 * a comma list; `search` the n-gram search over `q.tokens` and `q.text`.
 */
export type FilterMatch = 'equals' | 'folded' | 'foldedPrefix' | 'anyOf' | 'search';

export interface FilterDeclaration {
  readonly path: string;
  readonly match: FilterMatch;
  /**
   * Selective enough to lead an index, in declaration order (most selective first). `sorted`: one
   * index per sort and order, which walks the matches in the asked order. `unsorted`: one index
   * of its own, `{path, base, _id}`, whose matches the database sorts in memory (a top-k sort,
   * so memory holds one page). That suits `search`: `q.tokens` held every 2- and 3-gram of the
   * searched text (~480 per competition, ~25 per person; 3-grams alone now), so ten sort-serving copies cost 93 % of
   * the competitions' index build and of every competition write, while the count of a page walks
   * all the matches anyway.
   */
  readonly leads?: 'sorted' | 'unsorted';
}

const search: FilterDeclaration = { path: 'q.tokens', match: 'search', leads: 'unsorted' };
/**
 * A club's or a coach's current people: open links only, so a roster stays small (35 dancers a
 * club on average in the 200,000-person benchmark model) and its matches are sorted in memory.
 * One index instead of four sort-serving copies: the rebuild builds 7 fewer indexes on the
 * largest collections and every dancer write maintains 6 fewer.
 */
const rosterOf = (path: string): FilterDeclaration => ({ path, match: 'equals', leads: 'unsorted' });
const personCountry = {
  countryId: { path: 'country.id', match: 'equals', leads: 'sorted' },
  country: { path: 'q.country', match: 'folded', leads: 'sorted' },
} as const satisfies Record<string, FilterDeclaration>;

/**
 * Each listing's plain filters, once: the query parameter, the document path it reads, how it
 * matches and whether it leads an index. The API builds its query clauses from this table and
 * the index plan its leading keys, so a filter added or moved here changes both. Filters that
 * depend on the request day (`period`, `registrationOpen`) or compare ranges (`dateFrom`,
 * `dateTo`, `updatedSince`) are written in the competitions resource; none of them leads.
 */
export const LISTING_FILTERS: { readonly [L in ReadListing]: Readonly<Record<string, FilterDeclaration>> } = {
  // Competitions lead with search only: five sorts in two directions already take twenty
  // indexes, and a country's competitions are few enough to walk the base index in sort order.
  competitions: {
    search,
    country: { path: 'q.country', match: 'folded' },
    countryId: { path: 'location.countryId', match: 'equals' },
    city: { path: 'q.city', match: 'foldedPrefix' },
    status: { path: 'status', match: 'anyOf' },
    type: { path: 'type.code', match: 'anyOf' },
    registrationStatus: { path: 'registration.status', match: 'equals' },
  },
  // `clubId` and `coachId` match open links only; `status` is the dancer role's.
  dancers: {
    search,
    clubId: rosterOf('q.clubIds'),
    coachId: rosterOf('q.coachIds'),
    ...personCountry,
    sex: { path: 'q.sex', match: 'equals' },
    danceClass: { path: 'danceClass', match: 'equals' },
    hasPartner: { path: 'q.hasPartner', match: 'equals' },
    status: { path: 'status', match: 'anyOf' },
  },
  coaches: {
    search,
    clubId: rosterOf('q.clubIds'),
    ...personCountry,
    sex: { path: 'q.sex', match: 'equals' },
    highestClass: { path: 'highestClass', match: 'equals' },
  },
  judges: {
    search,
    ...personCountry,
    sex: { path: 'q.sex', match: 'equals' },
    judgeCategory: { path: 'judgeCategory', match: 'equals' },
    position: { path: 'q.positions', match: 'equals' },
    status: { path: 'status', match: 'anyOf' },
  },
  // `city`, `country` and `countryId` match any location of the club, branches included.
  clubs: {
    search,
    countryId: { path: 'q.countryIds', match: 'equals', leads: 'sorted' },
    country: { path: 'q.country', match: 'folded', leads: 'sorted' },
    city: { path: 'q.cities', match: 'foldedPrefix' },
  },
};

/** The filters that lead an index on `listing`, most selective first. */
export function leadingFilters(listing: ReadListing): Array<{ filter: string; path: string; sorted: boolean }> {
  return Object.entries(LISTING_FILTERS[listing])
    .filter(([, declaration]) => declaration.leads)
    .map(([filter, declaration]) => ({ filter, path: declaration.path, sorted: declaration.leads === 'sorted' }));
}
