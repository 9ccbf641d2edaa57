import type { Document } from 'mongodb';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import type { ReadModelView } from '../readModelSource.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { pageSkip } from './pagination.ts';

export interface PageRequest {
  readonly projection: Document;
  readonly page: number;
  readonly limit: number;
}

/**
 * One page of a listing, read with the planned sort and the planned index as `hint`, and the
 * total of the same filter (ReadModelView.count). A page beyond any collection only counts.
 */
export async function readPage(
  view: Pick<ReadModelView, 'collection' | 'count' | 'maxTimeMS'>,
  listing: ReadListing,
  query: ListingQuery,
  page: PageRequest,
): Promise<{ docs: Document[]; total: number }> {
  const skip = pageSkip(page.page, page.limit);
  const count = view.count(listing, query.filter);
  if (skip === null) return { docs: [], total: await count };
  const find = view
    .collection(listing)
    .find(query.filter, {
      projection: page.projection,
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
