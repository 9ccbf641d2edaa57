import type { Document } from 'mongodb';

// A query's shape is what the planner decides on: the fields and operators of its filter, its
// sort, hint and pipeline stages, never the values. Two requests that differ only in the club
// they ask for run in one plan, so the test explains one of them.

/** One statement the database plans: a find, aggregate, count, distinct, or one update/delete of a bulk write. */
export interface PlannedCommand {
  readonly name: 'find' | 'aggregate' | 'count' | 'distinct' | 'update' | 'delete' | 'findAndModify';
  /** The collection as sent; generations (`_g3`) are folded away by `collectionFamily`. */
  readonly collection: string;
  /** The command to send under `explain` (one statement for a bulk write). */
  readonly explain: Document;
}

const GENERATION_SUFFIX = /_g\d+$/;

/** `dancers_g2` → `dancers`: every generation of a collection has the same indexes. */
export function collectionFamily(collection: string): string {
  return collection.replace(GENERATION_SUFFIX, '');
}

function scalarPlaceholder(value: unknown): unknown {
  if (value === null) return null;
  if (value instanceof Date) return '<date>';
  if (value instanceof RegExp) return '<regex>';
  if (typeof value === 'object') return `<${(value as { _bsontype?: string })._bsontype ?? 'object'}>`;
  return `<${typeof value}>`;
}

const isPlainObject = (value: unknown): value is Document =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof Date) &&
  !(value instanceof RegExp) &&
  !('_bsontype' in value);

/**
 * A filter with its values replaced by their types. Kept as they are: field names, operators,
 * `null` (an equality on null is planned apart), the anchoring of a `$regex` (a prefix gives
 * index bounds, a substring does not), and whether an array holds none, one or several values
 * (`$in` of one value is an equality; of several it may merge sorted index walks).
 */
export function filterShape(filter: unknown, key = ''): unknown {
  if (Array.isArray(filter)) {
    if (filter.some(isPlainObject)) return filter.map((item) => filterShape(item));
    const item = filter.length === 0 ? [] : [scalarPlaceholder(filter[0])];
    return filter.length > 1 ? [...item, '…'] : item;
  }
  if (isPlainObject(filter)) {
    const shaped: Document = {};
    for (const [k, v] of Object.entries(filter)) shaped[k] = filterShape(v, k);
    return shaped;
  }
  if (key === '$regex' && typeof filter === 'string') return filter.startsWith('^') ? '<prefix>' : '<substring>';
  return scalarPlaceholder(filter);
}

/** A pipeline with its `$match` filters shaped; the other stages are the code's own constants. */
function pipelineShape(pipeline: readonly Document[]): unknown[] {
  return pipeline.map((stage) => ('$match' in stage ? { $match: filterShape(stage.$match) } : stage));
}

const present = (value: unknown): string | undefined => (value === undefined ? undefined : '<n>');

/** The planner-relevant parts of one statement, without its values. */
function statementShape(command: PlannedCommand): Document {
  const c = command.explain;
  switch (command.name) {
    case 'find':
      return { filter: filterShape(c.filter ?? {}), sort: c.sort, hint: c.hint, skip: present(c.skip), limit: present(c.limit) };
    case 'aggregate':
      return { pipeline: pipelineShape((c.pipeline as Document[] | undefined) ?? []), hint: c.hint };
    case 'count':
      return { query: filterShape(c.query ?? {}), hint: c.hint, skip: present(c.skip), limit: present(c.limit) };
    case 'distinct':
      return { key: c.key, query: filterShape(c.query ?? {}), hint: c.hint };
    case 'update': {
      const [u] = c.updates as Document[];
      const update = u?.u as Document | Document[] | undefined;
      const kind = Array.isArray(update)
        ? 'pipeline'
        : Object.keys(update ?? {})
            .filter((k) => k.startsWith('$'))
            .sort()
            .join(',') || 'replacement';
      return { q: filterShape(u?.q ?? {}), update: kind, upsert: u?.upsert === true, multi: u?.multi === true, hint: u?.hint };
    }
    case 'delete': {
      const [d] = c.deletes as Document[];
      return { q: filterShape(d?.q ?? {}), limit: d?.limit, hint: d?.hint };
    }
    case 'findAndModify':
      return { query: filterShape(c.query ?? {}), sort: c.sort, remove: c.remove === true, upsert: c.upsert === true };
  }
}

/** The key two statements share exactly when they run in the same plan on the same collection. */
export function commandShape(command: PlannedCommand): string {
  return JSON.stringify({ name: command.name, collection: collectionFamily(command.collection), ...statementShape(command) });
}
