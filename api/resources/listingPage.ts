import type { Filter } from 'mongodb';
import type { DocumentPath } from '../../services/readModel/documentPath.ts';
import type { ReadDocuments } from '../../services/readModel/documents.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { pageEnvelope, type PageQuery } from './pagination.ts';
import type { Projected } from './projection.ts';
import { readPage } from './readPage.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/**
 * The requested page of a listing (`/competitions`, `/dancers`, ...) in its envelope: the page
 * read with `query`'s filter and plan, only `fields` loaded, each document mapped by `toItem`.
 */
export async function listingPage<L extends ReadListing, P extends DocumentPath<ReadDocuments[L]>, T>(
  req: ResourceRequest<PageQuery>,
  listing: L,
  query: ListingQuery<Filter<ReadDocuments[L]>>,
  fields: readonly P[],
  toItem: (doc: Projected<ReadDocuments[L], P>) => T,
): Promise<ReturnType<typeof pageEnvelope<T>>> {
  const { docs, total } = await readPage(req.view, listing, query, { fields, page: req.query.page, limit: req.query.limit });
  return pageEnvelope(req.urls, `/${listing}`, req.query, docs.map(toItem), total);
}
