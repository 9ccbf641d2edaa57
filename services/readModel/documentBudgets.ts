import { BSON } from 'mongodb';

const MIB = 1024 * 1024;

/**
 * The byte budget of every stored document, by kind (decisions.md, "Hostile input": "stored
 * documents"). The database refuses a document past 16 MiB; these are far below it, sized by what
 * authored text one event can carry. One event is one Kafka record, at most the topic's
 * `max.message.bytes` (1,048,588 by default, docs/operating.md): about 1 MB of JSON, and its BSON
 * copy is of the same order (strings stay UTF-8, a field's framing is about JSON's quotes and
 * separators).
 *
 * - An aggregate's state keeps the latest authored text of its aggregate (one event's worth:
 *   details are replaced, never appended), the plain text derived from it (no longer than its
 *   source) and what its events add up (categories, entries, links, exceptions). Four events'
 *   worth leaves room for twice the authored text; a state past it has let its history grow
 *   in one document, and the event that grew it is refused instead of the partition.
 * - A read document holds what its state holds but the history, plus derived keys that are cut
 *   to fit (search text and keys, at most a few hundred KB: services/readModel/searchText.ts).
 *   Its budget is the state's plus 2 MB, so a state within its budget never gives a document past
 *   its own: the state is written before the documents, and refusing the document of a state
 *   already written would leave that state ahead of its documents.
 * - A link fact keeps one interval per join and leave of one member with one subject: small.
 * - Revisions and tallies hold a number and a key.
 */
export const DOCUMENT_BUDGETS = {
  state: 4 * MIB,
  read: 6 * MIB,
  fact: 2 * MIB,
  counter: 64 * 1024,
} as const;

export type DocumentKind = keyof typeof DOCUMENT_BUDGETS;

/** A document past its kind's budget: a content error of the event(s) whose fold grew it. */
export class DocumentOverBudget extends Error {
  override name = 'DocumentOverBudget';
  readonly kind: DocumentKind;
  readonly id: string;
  readonly bytes: number;
  readonly budget: number;
  constructor(kind: DocumentKind, collection: string, id: string, bytes: number, budget: number) {
    super(`the ${kind} document ${collection}/${id} would be ${bytes} bytes, past its budget of ${budget} bytes`);
    this.kind = kind;
    this.id = id;
    this.bytes = bytes;
    this.budget = budget;
  }
}

/**
 * Bytes the document takes in BSON, exactly, when it may be near `budget`; otherwise a bound that
 * is known to be under it. The exact count costs about what the driver's serialization does, so
 * it runs only where a bound walked in a fraction of that time (every string as three bytes per
 * UTF-16 unit, every number as eight, every array index as seven) does not already prove the
 * document small.
 */
export function documentBytes(doc: object, budget: number): number {
  const bound = bsonUpperBound(doc);
  return bound <= budget ? bound : BSON.calculateObjectSize(doc);
}

/**
 * An upper bound of the document's BSON size: at least what BSON.calculateObjectSize counts, for
 * the values a projection document holds (strings, numbers, booleans, null, dates, arrays and
 * plain objects); any other value is counted exactly.
 */
export function bsonUpperBound(value: unknown): number {
  if (typeof value === 'string') return 5 + 3 * value.length;
  if (typeof value !== 'object' || value === null) return 8;
  if (value instanceof Date) return 8;
  if (Array.isArray(value)) {
    let bytes = 5;
    // One type byte, the index as a key of up to seven digits and its terminator.
    for (const item of value) bytes += 9 + bsonUpperBound(item);
    return bytes;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return BSON.calculateObjectSize({ value });
  }
  let bytes = 5;
  for (const key of Object.keys(value)) bytes += 2 + 3 * key.length + bsonUpperBound((value as Record<string, unknown>)[key]);
  return bytes;
}

/** Throws DocumentOverBudget for the first document past the budget of `kind`. */
export function checkBudget(kind: DocumentKind, collection: string, docs: Iterable<{ _id?: unknown } & object>): void {
  const budget = DOCUMENT_BUDGETS[kind];
  for (const doc of docs) {
    const bytes = documentBytes(doc, budget);
    if (bytes > budget) throw new DocumentOverBudget(kind, collection, String(doc._id), bytes, budget);
  }
}
