import type { Filter } from 'mongodb';
import type { DocumentPath } from '../../services/readModel/documentPath.ts';
import type { ReadDocuments } from '../../services/readModel/documents.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import type { ReadModelView } from '../readModelSource.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { pageSkip } from './pagination.ts';
import { projectionOf, type Projected } from './projection.ts';

export interface PageRequest<P extends string> {
  /** The paths loaded (projectionOf); the page's documents are typed with them. */
  readonly fields: readonly P[];
  readonly page: number;
  readonly limit: number;
}

/**
 * One page of a listing, read with the planned sort and the planned index as `hint`, and the
 * total of the same filter (ReadModelView.count). A page beyond any collection only counts.
 */
export async function readPage<L extends ReadListing, P extends DocumentPath<ReadDocuments[L]>>(
  view: Pick<ReadModelView, 'collection' | 'count' | 'maxTimeMS'>,
  listing: L,
  query: ListingQuery<Filter<ReadDocuments[L]>>,
  page: PageRequest<P>,
): Promise<{ docs: Array<Projected<ReadDocuments[L], P>>; total: number }> {
  const skip = pageSkip(page.page, page.limit);
  const count = view.count(listing, query.filter);
  if (skip === null) return { docs: [], total: await count };
  const find = view
    .collection(listing)
    .find<Projected<ReadDocuments[L], P>>(query.filter, {
      projection: projectionOf(page.fields),
      sort: { ...query.plan.sort },
      skip,
      limit: page.limit,
      hint: query.plan.index.name,
      maxTimeMS: view.maxTimeMS,
    })
    .toArray();
  const [docs, total] = await Promise.all([find, count]);
  return { docs, total };
}
