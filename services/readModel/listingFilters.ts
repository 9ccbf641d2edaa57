import type { QueryByEndpoint } from '../../schemas/api/queryByEndpoint.ts';
import type { DocumentPath } from './documentPath.ts';
import type { ReadDocuments } from './documents.ts';
import type { ReadListing } from './indexPlan.ts';

/**
 * How a query parameter matches its document path: `equals` the value; `folded` the folded
 * value (case and diacritics ignored); `foldedPrefix` an anchored prefix of it; `anyOf` one of
 * a comma list; `search` the n-gram search over `q.tokens` and `q.text`.
 */
export type FilterMatch = 'equals' | 'folded' | 'foldedPrefix' | 'anyOf' | 'search';

/** `P`: the paths it may read; a table's declarations for one listing take its document's paths. */
export interface FilterDeclaration<P extends string = string> {
  readonly path: P;
  readonly match: FilterMatch;
  /**
   * Selective enough to lead an index, in declaration order (most selective first). `sorted`: one
   * index per sort and order, which walks the matches in the asked order. `unsorted`: one index
   * of its own, `{path, base, _id}`, whose matches the database sorts in memory (a top-k sort,
   * so memory holds one page). That suits `search`: `q.tokens` holds hundreds of keys per
   * competition, so ten sort-serving copies were most of the competitions' index build and of
   * every competition write (docs/performance.md), while the count of a page walks all the
   * matches anyway.
   */
  readonly leads?: 'sorted' | 'unsorted';
}

const search = { path: 'q.tokens', match: 'search', leads: 'unsorted' } as const;
/**
 * A club's or a coach's current people: open links only, so a roster stays small and its
 * matches are sorted in memory. One index instead of four sort-serving copies: the rebuild
 * builds fewer indexes on the largest collections and every dancer write maintains fewer.
 */
const rosterOf = <P extends string>(path: P) => ({ path, match: 'equals', leads: 'unsorted' }) as const;
const personCountry = {
  countryId: { path: 'country.id', match: 'equals', leads: 'sorted' },
  country: { path: 'q.country', match: 'folded', leads: 'sorted' },
} as const;

/** Per listing, its filters by a parameter of its own query, each reading a path of its own documents. */
type ListingFilterTable = {
  readonly [L in ReadListing]: { readonly [Q in keyof QueryByEndpoint[L]]?: FilterDeclaration<DocumentPath<ReadDocuments[L]>> };
};

/**
 * Each listing's plain filters, once: the query parameter, the document path it reads, how it
 * matches and whether it leads an index. The API builds its query clauses from this table and
 * the index plan its leading keys, so a filter added or moved here changes both. Filters that
 * depend on the request day (`period`, `registrationOpen`) or compare ranges (`dateFrom`,
 * `dateTo`, `updatedSince`) are written in the competitions resource; none of them leads.
 */
export const LISTING_FILTERS: ListingFilterTable = {
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

/** The filters declared for `listing`, as [query parameter, declaration] in declaration order. */
export function declaredFilters(listing: ReadListing): Array<readonly [string, FilterDeclaration]> {
  const filters: Readonly<Record<string, FilterDeclaration | undefined>> = LISTING_FILTERS[listing];
  return Object.entries(filters).flatMap(([name, declaration]) => (declaration ? [[name, declaration] as const] : []));
}

/** The filters that lead an index on `listing`, most selective first. */
export function leadingFilters(listing: ReadListing): Array<{ filter: string; path: string; sorted: boolean }> {
  return declaredFilters(listing)
    .filter(([, declaration]) => declaration.leads)
    .map(([filter, declaration]) => ({ filter, path: declaration.path, sorted: declaration.leads === 'sorted' }));
}
