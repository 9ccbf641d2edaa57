import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation, Db, Document, WriteConcern } from 'mongodb';
import { MongoError, MongoServerError } from 'mongodb';
import type { ChangeAction } from '../../schemas/api/changes.ts';
import type { ReadListing } from '../readModel/indexPlan.ts';
import { RESOURCE_TYPE_OF, SEQUENCE_ID, type ChangeCollections, type ChangeSequence } from './changeCollections.ts';
import type { ChangeRecord } from './changeRecord.ts';
import { publicVersion, type PublicVersion } from './publicVersion.ts';

const durable: WriteConcern = { w: 'majority', journal: true };

/** A resource of a read listing: `<listing>|<id>`. */
export type ResourceKey = string;

export const resourceKey = (listing: ReadListing, id: string): ResourceKey => `${listing}|${id}`;

function splitKey(key: ResourceKey): { listing: ReadListing; id: string } {
  const bar = key.indexOf('|');
  return { listing: key.slice(0, bar) as ReadListing, id: key.slice(bar + 1) };
}

/** Keys per intent document: a batch's resources fit in a few, each far below any byte budget. */
const KEYS_PER_INTENT = 1_000;

interface Head {
  _id: string;
  f: string | null;
  c: string[];
}

interface Intent {
  _id: string;
  keys: ResourceKey[];
  at: Date;
}

export interface ChangeLogTarget {
  readonly db: Db;
  readonly names: ChangeCollections;
  /** The read collection of each listing in the same generation. */
  readonly read: Readonly<Record<ReadListing, string>>;
  /** Marks listings changed (the read model's versions), so no cache serves what a change announces as not yet made. */
  readonly bumpVersions: (listings: ReadonlySet<ReadListing>) => Promise<void>;
  readonly now: () => Date;
}

/**
 * Records, before a batch writes, which resources it may change: if it dies between its writes
 * and its announcement, the clock announces them (announceIntents). Returns the intents' ids.
 */
export async function recordIntents(target: ChangeLogTarget, keys: readonly ResourceKey[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const intents: Intent[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_INTENT) {
    intents.push({ _id: randomUUID(), keys: keys.slice(i, i + KEYS_PER_INTENT), at: target.now() });
  }
  await target.db.collection<Intent>(target.names.intents).insertMany(intents, { writeConcern: durable });
  return intents.map((intent) => intent._id);
}

/** How long an append retries a conflict before the batch fails (and is retried): past the server's reaping of a dead writer's transaction. */
const RETRY_FOR_MS = 120_000;

/**
 * Announces every resource of `keys` whose stored public version differs from the last one
 * announced, and deletes the intents `done` in the same transaction.
 *
 * Exactly once: what is compared is the stored document (read after it was written), not what
 * the batch meant to write, so a replay that rewrites a document as it was, a write that lost
 * its guard to a newer one, or two instances announcing the same resource give one change per
 * visible version. The heads are updated under a guard on the fingerprint read, in the same
 * transaction as the changes, so of two announcers of one resource the second finds its guard
 * lost and compares again.
 *
 * In order: the positions come from one counter document incremented in the same transaction as
 * the changes are inserted. Two transactions that increment it conflict and one waits for the
 * other to commit, so a position is visible only after every lower one (each transaction's
 * positions are contiguous and land together).
 *
 * Never before the listings: the document was stored before it was read here, and its listing's
 * version is bumped after that read and before the change commits, so every API cache keyed on
 * versions read after the change misses the older body.
 */
export async function appendChanges(target: ChangeLogTarget, keys: readonly ResourceKey[], done: readonly string[] = []): Promise<number> {
  const began = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await appendOnce(target, [...new Set(keys)], done);
    } catch (error) {
      if (!retried(error) || Date.now() - began > RETRY_FOR_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, 2 ** Math.min(attempt, 7)) * Math.random()));
    }
  }
}

class GuardLost extends Error {
  override name = 'GuardLost';
}

async function appendOnce(target: ChangeLogTarget, keys: ResourceKey[], done: readonly string[]): Promise<number> {
  const [versions, heads] = await Promise.all([readVersions(target, keys), readHeads(target, keys)]);
  const changes: { key: ResourceKey; head: Head | undefined; now: PublicVersion; action: ChangeAction }[] = [];
  for (const key of keys) {
    const head = heads.get(key);
    const now = versions.get(key) ?? { fingerprint: null, country: [] };
    const before = head?.f ?? null;
    if (before === now.fingerprint) continue;
    const action: ChangeAction = before === null ? 'created' : now.fingerprint === null ? 'removed' : 'changed';
    changes.push({ key, head, now, action });
  }
  if (changes.length === 0) {
    if (done.length > 0)
      await target.db.collection<Intent>(target.names.intents).deleteMany({ _id: { $in: [...done] } }, { writeConcern: durable });
    return 0;
  }
  await target.bumpVersions(new Set(changes.map(({ key }) => splitKey(key).listing)));
  const session = target.db.client.startSession();
  try {
    session.startTransaction({ writeConcern: durable });
    const headOps: AnyBulkWriteOperation<Head>[] = changes.map(({ key, head, now }) => {
      const value = { f: now.fingerprint, c: now.fingerprint === null ? (head?.c ?? []) : now.country };
      return head === undefined
        ? { insertOne: { document: { _id: key, ...value } } }
        : { updateOne: { filter: { _id: key, f: head.f }, update: { $set: value } } };
    });
    const result = await target.db.collection<Head>(target.names.heads).bulkWrite(headOps, { ordered: true, session });
    if (result.insertedCount + result.matchedCount !== changes.length) throw new GuardLost('another announcer moved a head first');
    const sequence = await target.db
      .collection<ChangeSequence>(target.names.heads)
      .findOneAndUpdate(
        { _id: SEQUENCE_ID },
        { $inc: { seq: changes.length }, $setOnInsert: { trimmedThrough: 0 } },
        { upsert: true, returnDocument: 'after', session },
      );
    const last = Number(sequence?.seq);
    const at = target.now();
    const records: ChangeRecord[] = changes.map(({ key, head, now, action }, i) => {
      const { listing, id } = splitKey(key);
      return {
        _id: last - changes.length + 1 + i,
        at,
        type: RESOURCE_TYPE_OF[listing],
        id,
        action,
        country: now.fingerprint === null ? (head?.c ?? []) : now.country,
      };
    });
    await target.db.collection<ChangeRecord>(target.names.log).insertMany(records, { session });
    if (done.length > 0) await target.db.collection<Intent>(target.names.intents).deleteMany({ _id: { $in: [...done] } }, { session });
    await session.commitTransaction();
    return changes.length;
  } catch (error) {
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    throw error;
  } finally {
    await session.endSession();
  }
}

async function readVersions(target: ChangeLogTarget, keys: readonly ResourceKey[]): Promise<Map<ResourceKey, PublicVersion>> {
  const byListing = new Map<ReadListing, string[]>();
  for (const key of keys) {
    const { listing, id } = splitKey(key);
    byListing.set(listing, [...(byListing.get(listing) ?? []), id]);
  }
  const versions = new Map<ResourceKey, PublicVersion>();
  await Promise.all(
    [...byListing].map(async ([listing, ids]) => {
      const docs = await target.db
        .collection<Document & { _id: string }>(target.read[listing])
        .find({ _id: { $in: ids } }, { projection: { s: 0 } })
        .toArray();
      for (const doc of docs) versions.set(resourceKey(listing, String(doc._id)), publicVersion(listing, doc));
    }),
  );
  return versions;
}

async function readHeads(target: ChangeLogTarget, keys: readonly ResourceKey[]): Promise<Map<ResourceKey, Head>> {
  const heads = await target.db
    .collection<Head>(target.names.heads)
    .find({ _id: { $in: [...keys] } })
    .toArray();
  return new Map(heads.map((head) => [head._id, head]));
}

/** A conflict with another announcer: compare again. */
function retried(error: unknown): boolean {
  if (error instanceof GuardLost) return true;
  if (error instanceof MongoServerError && error.code === 11000) return true;
  return (
    error instanceof MongoError &&
    (error.hasErrorLabel('TransientTransactionError') || error.hasErrorLabel('UnknownTransactionCommitResult'))
  );
}

/**
 * Announces the resources of intents older than `olderThan`: batches that died (or are slow)
 * between recording them and announcing. Harmless on a batch still running: announcing compares
 * what is stored, and the batch's own announcement finds nothing left to say.
 */
export async function announceIntents(target: ChangeLogTarget, olderThan: Date, limit = 100): Promise<number> {
  const intents = await target.db
    .collection<Intent>(target.names.intents)
    .find({ at: { $lt: olderThan } })
    .limit(limit)
    .toArray();
  let announced = 0;
  for (const intent of intents) announced += await appendChanges(target, intent.keys, [intent._id]);
  return announced;
}
