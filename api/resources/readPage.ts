import type { Collection, Document } from 'mongodb';
import type { ListingQuery } from './filterBuilder.ts';
import { pageSkip } from './pagination.ts';

export interface PageRequest {
  readonly projection: Document;
  readonly page: number;
  readonly limit: number;
  /** The request's query time limit (ReadModelView.maxTimeMS). */
  readonly maxTimeMS: number;
}

/**
 * One page of a listing and the total, both with the same filter and the planned index as
 * `hint`. A page beyond any collection only counts.
 */
export async function readPage(
  collection: Collection<Document>,
  query: ListingQuery,
  page: PageRequest,
): Promise<{ docs: Document[]; total: number }> {
  const hint = query.plan.index.name;
  const skip = pageSkip(page.page, page.limit);
  const { maxTimeMS } = page;
  const count = collection.countDocuments(query.filter, { hint, maxTimeMS });
  if (skip === null) return { docs: [], total: await count };
  const find = collection
    .find(query.filter, { projection: page.projection, sort: { ...query.plan.sort }, skip, limit: page.limit, hint, maxTimeMS })
    .toArray();
  const [docs, total] = await Promise.all([find, count]);
  return { docs, total };
}
