import { chooseQueryShape, LISTING_PLANS, type ListingPlans, type QueryPlan, type ReadListing, type SortOrder } from './indexPlan.ts';
import { declaredFilters, LISTING_FILTERS, type FilterDeclaration, type ListingFilterTable } from './listingFilters.ts';
import { READ_MODEL_FORMAT, SERVED_FORMATS, TALLIES_SINCE_FORMAT } from './readModelFormat.ts';

/**
 * How a generation of one served read-model format is laid out, as the API reads it: its filter
 * declarations, its index plan and whether its projector keeps tallies. Chosen once per meta read
 * (services/mongo/readModelMeta.ts) and carried by the request's view, so a resource asks the
 * layout of the generation it reads instead of comparing format numbers.
 */
export interface ReadModelLayout {
  readonly format: number;
  readonly filters: ListingFilterTable;
  readonly plans: ListingPlans;
  /** Whether its projector keeps tallies beside the documents (meta `talliesOf` says whether they hold now). */
  readonly tallies: boolean;
  /** The filters declared for `listing`, as [query parameter, declaration] in declaration order. */
  declaredFilters(listing: ReadListing): Array<readonly [string, FilterDeclaration]>;
  /** The one shape (and index) a request with these filters present runs in. */
  chooseQueryShape(listing: ReadListing, present: Iterable<string>, sort: string, order: SortOrder): QueryPlan;
}

function layout(format: number): ReadModelLayout {
  return {
    format,
    filters: LISTING_FILTERS[format]!,
    plans: LISTING_PLANS[format]!,
    tallies: format >= TALLIES_SINCE_FORMAT,
    declaredFilters: (listing) => declaredFilters(listing, format),
    chooseQueryShape: (listing, present, sort, order) => chooseQueryShape(listing, present, sort, order, format),
  };
}

const LAYOUTS: ReadonlyMap<number, ReadModelLayout> = new Map(SERVED_FORMATS.map((format) => [format, layout(format)]));

/** The layout of a served format; null for any other (a generation this code does not read right). */
export const layoutOf = (format: number): ReadModelLayout | null => LAYOUTS.get(format) ?? null;

/** The layout this code writes. */
export const CURRENT_LAYOUT: ReadModelLayout = layoutOf(READ_MODEL_FORMAT)!;
