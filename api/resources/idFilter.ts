import type { Document, Filter } from 'mongodb';

/**
 * Exactly `{_id: id}`: a primary-key lookup.
 * Read documents use string ids (the driver's default typing expects an ObjectId).
 */
export function idFilter(id: string): Filter<Document> {
  return { _id: id } as unknown as Filter<Document>;
}
