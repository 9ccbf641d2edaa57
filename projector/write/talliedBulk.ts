import type { AnyBulkWriteOperation, Collection, Db, Document, WriteConcern } from 'mongodb';
import { MongoError } from 'mongodb';
import { facetProjection, facetDeltas, type FacetFields } from '../../services/readModel/facets.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import { readTransactionLifetimeLimit } from '../../services/mongo/index.ts';

/** Every projection document has a string _id. */
type Stored = Document & { _id: string };

/** A tally: one slot's share of a facet key's count (readTallies sums the slots). */
export interface TallyDocument {
  _id: string;
  /** The listing, facet and key it counts (the _id spells them too, for ranges). */
  l: string;
  f: string;
  k: unknown;
  n: number;
}

export interface TalliedBulk {
  db: Db;
  listing: ReadListing;
  collection: string;
  tallies: string;
  /**
   * Which share of each count this write adds to: no two writes of one process that run at once
   * use the same slot of a listing, so they never conflict on a tally (the counts every write
   * touches, like the registry's total); writers of two processes may, and then retry.
   */
  slot: number;
  writeConcern: WriteConcern;
}

/** How many times one transaction runs in all before the batch fails (the consumer reads the chunk again later). */
const MAX_ATTEMPTS = 8;
/** After this many failed runs of one transaction, its ops are split in two transactions instead. */
const SPLIT_AFTER_ATTEMPTS = 3;
/** Transactions run in all for one call, pieces included, before the batch fails. */
const MAX_TOTAL_ATTEMPTS = 64;
/** What a run that took this share of the server's transaction lifetime does next time: split, not run again whole. */
const LIFETIME_SHARE = 0.5;
/** How long the server's transaction lifetime, once read, is trusted. */
const LIFETIME_RECHECK_MS = 10_000;
/** MongoDB's codes of a transaction the server aborted for its age: TransactionExceededLifetimeLimitSeconds, NoSuchTransaction. */
const TOO_OLD_CODES: ReadonlySet<unknown> = new Set([290, 251]);

/**
 * Writes guarded replaces and deletes of one read collection and the change they make to its
 * tallies in one transaction, so that a tally is always the count of the documents it counts:
 * it reads the documents the ops address, applies the ops (an absent document's replace as an
 * insert, so a lost guard never aborts the transaction; an existing one's without upsert, so it
 * simply does not match), reads them again, and adds the difference of their facets
 * (facetDeltas) to the tallies. The difference is taken from what the transaction itself saw,
 * so a batch that runs again after a crash, or after a commit whose result was lost, adds
 * nothing for what had landed. A conflict with another transaction (another partition's or
 * another instance's writes to a shared coach or club, a tally slot two processes share) runs
 * the transaction again, in halves once it has failed a few times or taken half the server's
 * transaction lifetime (writePiece). Returns the indexes of the ops whose document is not theirs after
 * it (their guard lost to a newer one).
 */
export async function writeTallied(bulk: TalliedBulk, ops: readonly AnyBulkWriteOperation<Stored>[]): Promise<Set<number>> {
  const lifetimeMs = await transactionLifetimeMs(bulk.db);
  return writePiece(bulk, ops, { lifetimeMs, attemptsLeft: MAX_TOTAL_ATTEMPTS });
}

/**
 * One transaction over `ops`, run again after a conflict, but never the same way for ever: a run
 * that took half the server's transaction lifetime, was aborted for its age, or failed
 * SPLIT_AFTER_ATTEMPTS times is split in two transactions of half the ops each (each adds the
 * tally deltas of what it saw, so the halves together add what the whole would); all the runs of
 * one call are bounded (MAX_TOTAL_ATTEMPTS), and past the bound the error goes to the consumer.
 */
async function writePiece(
  bulk: TalliedBulk,
  ops: readonly AnyBulkWriteOperation<Stored>[],
  limits: { lifetimeMs: number | null; attemptsLeft: number },
): Promise<Set<number>> {
  for (let attempt = 1; ; attempt++) {
    limits.attemptsLeft--;
    const began = performance.now();
    const session = bulk.db.client.startSession();
    try {
      session.startTransaction({ writeConcern: bulk.writeConcern });
      const lost = await writeOnce(bulk, ops, session);
      await session.commitTransaction();
      return lost;
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      if (!runsAgain(error) || limits.attemptsLeft <= 0) throw error;
      const tooLong = tooOld(error) || (limits.lifetimeMs !== null && performance.now() - began > LIFETIME_SHARE * limits.lifetimeMs);
      if (ops.length > 1 && (tooLong || attempt >= SPLIT_AFTER_ATTEMPTS)) return writeHalves(bulk, ops, limits);
      if (attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)));
    } finally {
      await session.endSession();
    }
  }
}

/** The ops in two transactions, one after the other; the indexes of the ops whose guard lost, in `ops`' numbering. */
async function writeHalves(
  bulk: TalliedBulk,
  ops: readonly AnyBulkWriteOperation<Stored>[],
  limits: { lifetimeMs: number | null; attemptsLeft: number },
): Promise<Set<number>> {
  const half = ops.length >>> 1;
  const first = await writePiece(bulk, ops.slice(0, half), limits);
  const second = await writePiece(bulk, ops.slice(half), limits);
  return new Set([...first, ...[...second].map((i) => i + half)]);
}

const tooOld = (error: unknown): boolean => error instanceof MongoError && TOO_OLD_CODES.has(error.code);

const lifetimes = new WeakMap<Db, { at: number; ms: Promise<number | null> }>();

/** The server's transaction lifetime in milliseconds (null where it will not say), read again every LIFETIME_RECHECK_MS. */
function transactionLifetimeMs(db: Db): Promise<number | null> {
  const known = lifetimes.get(db);
  if (known && performance.now() - known.at < LIFETIME_RECHECK_MS) return known.ms;
  const ms = readTransactionLifetimeLimit(db).then((seconds) => (seconds === null ? null : 1000 * seconds));
  lifetimes.set(db, { at: performance.now(), ms });
  return ms;
}

async function writeOnce(
  bulk: TalliedBulk,
  ops: readonly AnyBulkWriteOperation<Stored>[],
  session: ReturnType<Db['client']['startSession']>,
): Promise<Set<number>> {
  const documents = bulk.db.collection<Stored>(bulk.collection);
  const ids = ops.map(idOf);
  const facets = facetProjection(bulk.listing);
  const before = await readByIds(documents, ids, facets, session);
  const writes = ops.flatMap((op, i): AnyBulkWriteOperation<Stored>[] => {
    const exists = before.has(ids[i]!);
    if ('replaceOne' in op) {
      const { filter, replacement } = op.replaceOne;
      return exists ? [{ replaceOne: { filter, replacement } }] : [{ insertOne: { document: { ...replacement, _id: ids[i]! } } }];
    }
    return exists ? [op] : [];
  });
  if (writes.length > 0) await documents.bulkWrite(writes, { ordered: false, session });
  const after = await readByIds(documents, ids, { ...facets, stamp: 1, rev: 1 }, session);
  const deltas = facetDeltas(bulk.listing, before.values(), after.values());
  if (deltas.size > 0) {
    await bulk.db.collection<TallyDocument>(bulk.tallies).bulkWrite(
      [...deltas].map(([prefix, { facet, key, delta }]) => ({
        updateOne: {
          filter: { _id: `${prefix}${bulk.slot}` },
          update: { $inc: { n: delta }, $setOnInsert: { l: bulk.listing, f: facet, k: key } },
          upsert: true,
        },
      })),
      { ordered: false, session },
    );
  }
  return new Set(ops.flatMap((op, i) => (landed(op, after.get(ids[i]!)) ? [] : [i])));
}

async function readByIds(
  documents: Collection<Stored>,
  ids: readonly string[],
  projection: Document,
  session: ReturnType<Db['client']['startSession']>,
): Promise<Map<string, Stored & FacetFields>> {
  const found = await documents.find({ _id: { $in: [...ids] } }, { projection, session }).toArray();
  return new Map(found.map((doc) => [doc._id, doc as Stored & FacetFields]));
}

/** The _id an op addresses: its filter's, alone or first under `$and` (stampedWrite). */
function idOf(op: AnyBulkWriteOperation<Stored>): string {
  const filter = 'replaceOne' in op ? op.replaceOne.filter : 'deleteOne' in op ? op.deleteOne.filter : undefined;
  const id: unknown = filter?._id ?? filter?.$and?.[0]?._id;
  if (typeof id !== 'string') throw new TypeError('a tallied write addresses one document by its string _id');
  return id;
}

/** Whether the document after the write is the op's: a replace's stamp or revision, a delete's absence. */
function landed(op: AnyBulkWriteOperation<Stored>, after: Document | undefined): boolean {
  if (!('replaceOne' in op)) return after === undefined;
  const { stamp, rev } = op.replaceOne.replacement as Document;
  return after !== undefined && JSON.stringify([after.stamp, after.rev]) === JSON.stringify([stamp, rev]);
}

/**
 * A transaction to run again: a conflict or abort (TransientTransactionError), a commit whose
 * result is unknown (running it again reads what landed), or a document another writer inserted
 * since the read (a duplicate key; MongoDB may report it so instead of as a conflict).
 */
function runsAgain(error: unknown): boolean {
  return (
    error instanceof MongoError &&
    (error.hasErrorLabel('TransientTransactionError') || error.hasErrorLabel('UnknownTransactionCommitResult') || error.code === 11000)
  );
}
