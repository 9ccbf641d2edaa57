import type { Db, IndexDescription } from 'mongodb';
import { readCollections } from './documents.ts';
import { leadingFilters, type LeadingFilter } from './listingFilters.ts';
import { READ_MODEL_FORMAT, SERVED_FORMATS } from './readModelFormat.ts';

// The query shapes the API sends to each read collection and the compound index serving each
// one (equality fields, then the sort fields, then `_id` as the last tiebreak; ranges and the
// other filters are checked on the documents the index walk yields). The API picks its shape
// here (chooseQueryShape) and sorts and hints with what it returns, so the queries and the
// indexes cannot drift apart. Each read-model format has its own plan (its filters lead
// different keys), and a generation is queried and indexed by the plan of the format it was built in.

export type ReadListing = keyof typeof readCollections;
export type SortOrder = 'asc' | 'desc';
export type IndexKey = Readonly<Record<string, 1 | -1>>;

/** A sort key: `order` fields follow the requested direction, `asc` fields never turn. */
interface SortField {
  readonly path: string;
  readonly direction: 'order' | 'asc';
}

interface ListingPlan {
  /** Equality every query of the listing carries (`visible: true`, `registryState: {$in}`). */
  readonly base: string;
  /** Selective equality filters that may lead the index, most selective first; unsorted ones have one index whose matches are sorted in memory. */
  readonly leading: readonly LeadingFilter[];
  readonly sorts: Readonly<Record<string, readonly SortField[]>>;
}

const by = (path: string): SortField[] => [{ path, direction: 'order' }];
/** `sort=approvedAt`: nulls last in both directions, then the instant. */
const approved: SortField[] = [
  { path: 'q.approvedRank', direction: 'asc' },
  { path: 'q.approvedAt', direction: 'order' },
];
const peopleSorts = { name: by('q.nameKey'), approvedAt: approved };

export type ListingPlans = Readonly<Record<ReadListing, ListingPlan>>;

/** Leading filters come from LISTING_FILTERS (listingFilters.ts), the table the API builds its clauses from. */
function listingPlans(format: number): ListingPlans {
  return {
    competitions: {
      base: 'visible',
      leading: leadingFilters('competitions', format),
      sorts: {
        startDate: by('dates.start'),
        endDate: by('dates.end'),
        name: by('q.name'),
        createdAt: by('createdAt'),
        updatedAt: by('updatedAt'),
      },
    },
    dancers: { base: 'registryState', leading: leadingFilters('dancers', format), sorts: peopleSorts },
    coaches: { base: 'registryState', leading: leadingFilters('coaches', format), sorts: peopleSorts },
    judges: { base: 'registryState', leading: leadingFilters('judges', format), sorts: peopleSorts },
    clubs: { base: 'registryState', leading: leadingFilters('clubs', format), sorts: peopleSorts },
  };
}

/** The plan of each served format (SERVED_FORMATS). */
export const LISTING_PLANS: Readonly<Record<number, ListingPlans>> = Object.fromEntries(
  SERVED_FORMATS.map((format) => [format, listingPlans(format)]),
);

export const BASE_SHAPE = 'base';
export const SORT_ORDERS: readonly SortOrder[] = ['asc', 'desc'];

export interface QueryShape {
  readonly listing: ReadListing;
  /** The read-model format of the generation it runs on. */
  readonly format: number;
  /** The leading filter's name, or `base`. */
  readonly leading: string;
  readonly sort: string;
  readonly order: SortOrder;
}

export interface QueryPlan {
  readonly shape: QueryShape;
  /** The index serving the shape; pass `name` as `hint`. */
  readonly index: { readonly name: string; readonly key: IndexKey };
  /** The Mongo sort of the query: the sort fields, then `_id` ascending (the index's own, except for an unsorted leading filter). */
  readonly sort: IndexKey;
}

/** The plan of `listing` in `format`; throws on a format this code does not serve. */
export function planOf(listing: ReadListing, format: number = READ_MODEL_FORMAT): ListingPlan {
  const plans = LISTING_PLANS[format];
  if (!plans) throw new RangeError(`no index plan for read-model format ${format}`);
  return plans[listing];
}

function sortSpec(fields: readonly SortField[], order: SortOrder): Record<string, 1 | -1> {
  const spec: Record<string, 1 | -1> = {};
  for (const { path, direction } of fields) spec[path] = direction === 'order' && order === 'desc' ? -1 : 1;
  spec._id = 1;
  return spec;
}

/** The plan of one shape; throws on a sort or leading filter the listing does not plan. */
export function planFor(shape: QueryShape): QueryPlan {
  const plan = planOf(shape.listing, shape.format);
  const fields = plan.sorts[shape.sort];
  if (!fields) throw new RangeError(`no sort ${shape.sort} planned on ${shape.listing}`);
  const sort = sortSpec(fields, shape.order);
  const leading = shape.leading === BASE_SHAPE ? undefined : plan.leading.find((l) => l.filter === shape.leading);
  if (shape.leading !== BASE_SHAPE && !leading) throw new RangeError(`no leading filter ${shape.leading} planned on ${shape.listing}`);
  if (leading && !leading.sorted) {
    return { shape, index: { name: `api_${leading.indexedAs}`, key: { [leading.path]: 1, [plan.base]: 1, _id: 1 } }, sort };
  }
  const key: Record<string, 1 | -1> = leading ? { [leading.path]: 1 } : {};
  key[plan.base] = 1;
  const name = `api_${leading?.indexedAs ?? BASE_SHAPE}_${shape.sort}_${shape.order}`;
  return { shape, index: { name, key: { ...key, ...sort } }, sort };
}

/**
 * The one shape a request runs in: the first planned leading filter among those present (most
 * selective first), else the base shape; the other filters are checked on the walked documents.
 */
export function chooseQueryShape(
  listing: ReadListing,
  present: Iterable<string>,
  sort: string,
  order: SortOrder,
  format: number = READ_MODEL_FORMAT,
): QueryPlan {
  const given = new Set(present);
  const leading = planOf(listing, format).leading.find((l) => given.has(l.filter))?.filter ?? BASE_SHAPE;
  return planFor({ listing, format, leading, sort, order });
}

/** Every shape the API can send to a listing in `format`: each leading filter (and base) × sort × order. */
export function queryShapes(listing: ReadListing, format: number = READ_MODEL_FORMAT): QueryShape[] {
  const plan = planOf(listing, format);
  const leadings = [BASE_SHAPE, ...plan.leading.map((l) => l.filter)];
  return leadings.flatMap((leading) =>
    Object.keys(plan.sorts).flatMap((sort) => SORT_ORDERS.map((order) => ({ listing, format, leading, sort, order }))),
  );
}

/** Indexes the projector's own queries need besides the API's: the clock's due instants, facts by subject and by member. */
const CLOCK_INDEX: IndexDescription = { name: 'clock_due', key: { nextDueAt: 1, _id: 1 } };
export const SLUG_INDEX_NAME = 'competitions_slug';
/** `_id` after the slug: the lookup takes the first by `_id`, which the index then yields in order (no in-memory sort). */
const SLUG_INDEX: IndexDescription = { name: SLUG_INDEX_NAME, key: { slug: 1, _id: 1 } };
/** `GET /competitions/removals`: removal instant (range from `updatedSince`), then `_id`, the order it pages in. */
export const REMOVALS_INDEX_NAME = 'competitions_removals';
export const REMOVALS_INDEX: IndexDescription = { name: REMOVALS_INDEX_NAME, key: { 'removal.at': 1, _id: 1 } };
export const MEMBER_LINKS_INDEX: IndexDescription = { name: 'facts_by_subject', key: { kind: 1, subjectId: 1 } };
/** The writer compares a member's new facts with its stored ones (loadMemberFacts). */
export const MEMBER_FACTS_INDEX: IndexDescription = { name: 'facts_by_member', key: { memberId: 1, memberRole: 1 } };
/** A batch reads a person's link records that ended since an instant, or were written since a version (findPersonLinks). */
export const PERSON_LINKS_BY_END_INDEX: IndexDescription = { name: 'links_by_end', key: { personId: 1, end: 1 } };
export const PERSON_LINKS_BY_VERSION_INDEX: IndexDescription = { name: 'links_by_version', key: { personId: 1, v: 1 } };
const PERSON_LINKS_INDEXES = [PERSON_LINKS_BY_END_INDEX, PERSON_LINKS_BY_VERSION_INDEX];
const CHANGE_INTENTS_BY_AGE_INDEX: IndexDescription = { name: 'at_1', key: { at: 1 } };

/**
 * Every index of a read collection in `format`: one per query shape (shapes whose filters share
 * indexes share them), the clock's, the slug lookup and the removals.
 */
export function readCollectionIndexes(listing: ReadListing, format: number = READ_MODEL_FORMAT): IndexDescription[] {
  const api = new Map<string, IndexDescription>();
  for (const shape of queryShapes(listing, format)) {
    const { index } = planFor(shape);
    api.set(index.name, { name: index.name, key: { ...index.key } });
  }
  return [...api.values(), CLOCK_INDEX, ...(listing === 'competitions' ? [SLUG_INDEX, REMOVALS_INDEX] : [])];
}

export interface IndexedCollections {
  readonly read: Readonly<Record<ReadListing, string>>;
  readonly memberLinks?: string;
  readonly personLinks?: string;
  /** The change feed's intents, read by age (services/changes/appendChanges.ts announceIntents). */
  readonly changes?: { readonly intents: string };
}

const NAMESPACE_NOT_FOUND = 26;

/** Names and keys of a collection's indexes; none when the collection does not exist yet. */
async function existingIndexes(db: Db, collection: string): Promise<Set<string>> {
  try {
    const indexes = (await db.collection(collection).listIndexes().toArray()) as Array<{ name?: unknown; key?: unknown }>;
    return new Set(indexes.flatMap((index) => [`name:${String(index.name)}`, `key:${JSON.stringify(index.key)}`]));
  } catch (error) {
    if ((error as { code?: number }).code === NAMESPACE_NOT_FOUND) return new Set();
    throw error;
  }
}

/**
 * Creates the missing ones, one per command: a single existing index is a no-op, which keeps
 * concurrent callers safe, and one command naming several costs the stand-in as much as several
 * commands (measured: see docs/performance.md, The local database).
 */
async function ensureIndexes(db: Db, collection: string, indexes: readonly IndexDescription[]): Promise<void> {
  const existing = await existingIndexes(db, collection);
  for (const index of indexes) {
    // The same key under another name counts as present (creating it again is an error on MongoDB).
    if (existing.has(`name:${String(index.name)}`) || existing.has(`key:${JSON.stringify(index.key)}`)) continue;
    await db.collection(collection).createIndexes([index]);
  }
}

/**
 * The indexes the writer itself reads through (facts by subject and by member): all a replay
 * into an empty generation needs. A rebuild creates the API's and the clock's after the replay,
 * because maintaining them on every write costs more than building them once over the finished
 * collections (measured: see docs/performance.md, The projector's writes).
 */
export async function ensureWriterIndexes(db: Db, collections: IndexedCollections): Promise<void> {
  if (collections.memberLinks !== undefined) await ensureIndexes(db, collections.memberLinks, [MEMBER_LINKS_INDEX, MEMBER_FACTS_INDEX]);
  if (collections.personLinks !== undefined) await ensureIndexes(db, collections.personLinks, PERSON_LINKS_INDEXES);
  if (collections.changes !== undefined) await ensureIndexes(db, collections.changes.intents, [CHANGE_INTENTS_BY_AGE_INDEX]);
}

/** Creates the planned indexes of one read collection in `format`. Idempotent. */
export function ensureListingIndexes(db: Db, listing: ReadListing, collection: string, format: number = READ_MODEL_FORMAT): Promise<void> {
  return ensureIndexes(db, collection, readCollectionIndexes(listing, format));
}

/**
 * Creates every planned index of `format` on one generation's collections (on the read
 * collections of `listings` only, when given). Idempotent. The projector calls it when it
 * creates a generation (and may call it at every start), in the format it builds.
 */
export async function ensureReadModelIndexes(
  db: Db,
  collections: IndexedCollections,
  listings: readonly ReadListing[] = Object.keys(readCollections) as ReadListing[],
  format: number = READ_MODEL_FORMAT,
): Promise<void> {
  const jobs = listings.map((listing) => ensureListingIndexes(db, listing, collections.read[listing], format));
  if (collections.memberLinks !== undefined)
    jobs.push(ensureIndexes(db, collections.memberLinks, [MEMBER_LINKS_INDEX, MEMBER_FACTS_INDEX]));
  if (collections.personLinks !== undefined) jobs.push(ensureIndexes(db, collections.personLinks, PERSON_LINKS_INDEXES));
  if (collections.changes !== undefined) jobs.push(ensureIndexes(db, collections.changes.intents, [CHANGE_INTENTS_BY_AGE_INDEX]));
  await Promise.all(jobs);
}
