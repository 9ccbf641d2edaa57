import type { Collection, Document, Filter, FindCursor, FindOneOptions, FindOptions } from 'mongodb';
import type { DocumentPath } from '../../services/readModel/documentPath.ts';

type Head<P extends string> = P extends `${infer H}.${string}` ? H : P;
type Below<P extends string, H extends string> = P extends `${H}.${infer Rest}` ? Rest : never;
type ProjectedValue<V, P extends string> = V extends null
  ? null
  : V extends readonly (infer Item)[]
    ? Projected<Item, P>[]
    : Projected<V, P>;

/**
 * A document of type `D` as an inclusion projection of the paths `P` reads it: the top-level
 * fields the paths name, a field named whole as stored, one named by deeper paths cut to them.
 */
export type Projected<D, P extends string> = {
  [H in Head<P> & keyof D]: H extends P ? D[H] : ProjectedValue<D[H], Below<P, H>>;
};

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

/** `collection.find` loading only `fields`, its documents typed with what those load. */
export function findFields<D extends Document, P extends DocumentPath<D>>(
  collection: Collection<D>,
  filter: Filter<D>,
  fields: readonly P[],
  options: Omit<FindOptions, 'projection'>,
): FindCursor<Projected<D, P>> {
  return collection.find<Projected<D, P>>(filter, { projection: projectionOf(fields), ...options });
}

/** `collection.findOne` loading only `fields`, typed as findFields types its documents. */
export function findOneFields<D extends Document, P extends DocumentPath<D>>(
  collection: Collection<D>,
  filter: Filter<D>,
  fields: readonly P[],
  options: Omit<FindOneOptions, 'projection'>,
): Promise<Projected<D, P> | null> {
  return collection.findOne<Projected<D, P>>(filter, { projection: projectionOf(fields), ...options });
}
