import type { Document } from 'mongodb';

/**
 * An inclusion projection of the public fields a response needs. Listing what is read (rather
 * than excluding what is internal) keeps `_id`, `q`, `visible`, `nextDueAt`, `stamp`, `rev`
 * and any internal field added later out of every response.
 */
export function projectionOf(fields: readonly string[]): Document {
  const projection: Document = { _id: 0 };
  for (const field of fields) projection[field] = 1;
  return projection;
}
