import type { QueryByEndpoint } from '../../schemas/api/queryByEndpoint.ts';
import type { DocumentPath } from './documentPath.ts';
import type { ReadDocuments } from './documents.ts';
import type { ReadListing } from './indexPlan.ts';
import { READ_MODEL_FORMAT } from './readModelFormat.ts';

/**
 * How a query parameter matches its document path: `equals` the value; `folded` the folded
 * value (case and diacritics ignored); `foldedPrefix` an anchored prefix of it; `anyOf` one of
 * a comma list; `search` the n-gram search over the declared tokens and the `text` beside them; `countryIdKey` the
 * key countryIdKey makes of the id (sortKeys.ts).
 */
export type FilterMatch = 'equals' | 'folded' | 'foldedPrefix' | 'anyOf' | 'search' | 'countryIdKey';

/** `P`: the paths it may read; a table's declarations for one listing take its document's paths. */
export interface FilterDeclaration<P extends string = string> {
  readonly path: P;
  readonly match: FilterMatch;
  /**
   * Selective enough to lead an index, in declaration order (most selective first). `sorted`: one
   * index per sort and order, which walks the matches in the asked order. `unsorted`: one index
   * of its own, `{path, base, _id}`, whose matches the database sorts in memory (a top-k sort,
   * so memory holds one page). That suits `search`: the tokens hold hundreds of keys per
   * competition, so ten sort-serving copies were most of the competitions' index build and of
   * every competition write (docs/performance.md), while the count of a page walks all the
   * matches anyway.
   */
  readonly leads?: 'sorted' | 'unsorted';
  /**
   * Leads the indexes of that filter of the listing, which reads the same path the same way: one
   * key cannot have two indexes of different names (MongoDB refuses the second), and one set
   * serves both filters.
   */
  readonly sharesIndexesOf?: string;
}

/** The search keys by read-model format: in `q` until format 3 moved them to `s` (readModelFormat.ts). */
const SEARCH = {
  inQ: { path: 'q.tokens', match: 'search', leads: 'unsorted' },
  own: { path: 's.tokens', match: 'search', leads: 'unsorted' },
} as const;
/**
 * A club's or a coach's current people: open links only, so a roster stays small and its
 * matches are sorted in memory. One index instead of four sort-serving copies: the rebuild
 * builds fewer indexes on the largest collections and every dancer write maintains fewer.
 */
const rosterOf = <P extends string>(path: P) => ({ path, match: 'equals', leads: 'unsorted' }) as const;
const country = { path: 'q.country', match: 'folded', leads: 'sorted' } as const;

/**
 * The country filters of the people and the clubs, by read-model format (readModelFormat.ts).
 * Format 1: `countryId` reads the id (a person's `country.id`, a club's `q.countryIds`) and leads
 * indexes of its own. Format 2: it matches the id's key in `q.country` and leads the `country`
 * filter's indexes, one set of sort-serving indexes instead of two on each of these listings.
 */
const COUNTRY_FILTERS = {
  1: {
    people: { countryId: { path: 'country.id', match: 'equals', leads: 'sorted' }, country },
    clubs: { countryId: { path: 'q.countryIds', match: 'equals', leads: 'sorted' }, country },
  },
  2: {
    people: { countryId: { path: 'q.country', match: 'countryIdKey', leads: 'sorted', sharesIndexesOf: 'country' }, country },
    clubs: { countryId: { path: 'q.country', match: 'countryIdKey', leads: 'sorted', sharesIndexesOf: 'country' }, country },
  },
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
function listingFilterTable(
  countries: (typeof COUNTRY_FILTERS)[keyof typeof COUNTRY_FILTERS],
  search: (typeof SEARCH)[keyof typeof SEARCH],
): ListingFilterTable {
  return {
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
      ...countries.people,
      sex: { path: 'q.sex', match: 'equals' },
      danceClass: { path: 'danceClass', match: 'equals' },
      hasPartner: { path: 'q.hasPartner', match: 'equals' },
      status: { path: 'status', match: 'anyOf' },
    },
    coaches: {
      search,
      clubId: rosterOf('q.clubIds'),
      ...countries.people,
      sex: { path: 'q.sex', match: 'equals' },
      highestClass: { path: 'highestClass', match: 'equals' },
    },
    judges: {
      search,
      ...countries.people,
      sex: { path: 'q.sex', match: 'equals' },
      judgeCategory: { path: 'judgeCategory', match: 'equals' },
      position: { path: 'q.positions', match: 'equals' },
      status: { path: 'status', match: 'anyOf' },
    },
    // `city`, `country` and `countryId` match any location of the club, branches included.
    clubs: {
      search,
      ...countries.clubs,
      city: { path: 'q.cities', match: 'foldedPrefix' },
    },
  };
}

/** The filter table of each format the API serves (SERVED_FORMATS): a generation is queried in its own. */
export const LISTING_FILTERS: Readonly<Record<number, ListingFilterTable>> = {
  1: listingFilterTable(COUNTRY_FILTERS[1], SEARCH.inQ),
  2: listingFilterTable(COUNTRY_FILTERS[2], SEARCH.inQ),
  3: listingFilterTable(COUNTRY_FILTERS[2], SEARCH.own),
  // Format 4 adds tallies beside the documents; the documents and their filters are format 3's.
  4: listingFilterTable(COUNTRY_FILTERS[2], SEARCH.own),
  // Format 5 moves the competitions' entries out of their states; the read documents are format 4's.
  5: listingFilterTable(COUNTRY_FILTERS[2], SEARCH.own),
  // Format 6 moves the persons' links out of their states; the read documents are format 5's.
  6: listingFilterTable(COUNTRY_FILTERS[2], SEARCH.own),
};

/** The filter table of `format`; throws on a format this code does not serve. */
export function listingFilters(format: number = READ_MODEL_FORMAT): ListingFilterTable {
  const table = LISTING_FILTERS[format];
  if (!table) throw new RangeError(`no filters declared for read-model format ${format}`);
  return table;
}

/** The filters declared for `listing` in `format`, as [query parameter, declaration] in declaration order. */
export function declaredFilters(listing: ReadListing, format: number = READ_MODEL_FORMAT): Array<readonly [string, FilterDeclaration]> {
  const filters: Readonly<Record<string, FilterDeclaration | undefined>> = listingFilters(format)[listing];
  return Object.entries(filters).flatMap(([name, declaration]) => (declaration ? [[name, declaration] as const] : []));
}

/** A filter that leads an index: `indexedAs` names its indexes (its own name, or sharesIndexesOf). */
export interface LeadingFilter {
  readonly filter: string;
  readonly path: string;
  readonly sorted: boolean;
  readonly indexedAs: string;
}

/** The filters that lead an index on `listing` in `format`, most selective first. */
export function leadingFilters(listing: ReadListing, format: number = READ_MODEL_FORMAT): LeadingFilter[] {
  return declaredFilters(listing, format).flatMap(([filter, declaration]) =>
    declaration.leads
      ? [{ filter, path: declaration.path, sorted: declaration.leads === 'sorted', indexedAs: declaration.sharesIndexesOf ?? filter }]
      : [],
  );
}
