import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { pageEnvelope, type PageQuery } from './pagination.ts';
import { projectionOf } from './projection.ts';
import { readPage } from './readPage.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/**
 * The requested page of a listing (`/competitions`, `/dancers`, ...) in its envelope: the page
 * read with `query`'s filter and plan, only `fields` loaded, each document mapped by `toItem`.
 * `D` is the stored document type the mapping expects (the projection keeps its fields).
 */
export async function listingPage<D, T>(
  req: ResourceRequest<PageQuery>,
  listing: ReadListing,
  query: ListingQuery,
  fields: readonly string[],
  toItem: (doc: D) => T,
): Promise<ReturnType<typeof pageEnvelope<T>>> {
  const { docs, total } = await readPage(req.view, listing, query, {
    projection: projectionOf(fields),
    page: req.query.page,
    limit: req.query.limit,
  });
  return pageEnvelope(
    req.urls,
    `/${listing}`,
    req.query,
    docs.map((doc) => toItem(doc as D)),
    total,
  );
}
