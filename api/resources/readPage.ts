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

/**
 * Documents fetched per round trip when a page is streamed. A stored document may hold megabytes
 * of authored text (services/readModel/documentBudgets.ts), so a page's read holds at most this
 * many of them at a time, whatever `limit` asks for.
 */
export const STREAM_BATCH_DOCUMENTS = 4;

/**
 * readPage as a stream: the page's documents one by one from the cursor (STREAM_BATCH_DOCUMENTS
 * per round trip), and the total, counted beside them. The cursor is closed when the iteration
 * ends, fails or is dropped.
 */
export function streamPage<L extends ReadListing, P extends DocumentPath<ReadDocuments[L]>>(
  view: Pick<ReadModelView, 'collection' | 'count' | 'maxTimeMS'>,
  listing: L,
  query: ListingQuery<Filter<ReadDocuments[L]>>,
  page: PageRequest<P>,
): { docs: AsyncIterable<Projected<ReadDocuments[L], P>>; total: Promise<number> } {
  const skip = pageSkip(page.page, page.limit);
  const total = view.count(listing, query.filter);
  // Awaited by the caller after the documents; a failure before then must not go unhandled.
  total.catch(() => undefined);
  async function* docs(): AsyncGenerator<Projected<ReadDocuments[L], P>> {
    if (skip === null) return;
    const cursor = view.collection(listing).find<Projected<ReadDocuments[L], P>>(query.filter, {
      projection: projectionOf(page.fields),
      sort: { ...query.plan.sort },
      skip,
      limit: page.limit,
      batchSize: Math.min(page.limit, STREAM_BATCH_DOCUMENTS),
      hint: query.plan.index.name,
      maxTimeMS: view.maxTimeMS,
    });
    try {
      for await (const doc of cursor) yield doc;
    } finally {
      await cursor.close();
    }
  }
  return { docs: docs(), total };
}
