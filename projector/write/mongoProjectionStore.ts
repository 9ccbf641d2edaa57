import type { AnyBulkWriteOperation, Collection, Db, Document, WriteConcern } from 'mongodb';
import { MongoError } from 'mongodb';
import {
  abandonedTransactionGoneWithinMs,
  bumpVersions,
  dropTallies,
  readMeta,
  readTransactionLifetimeLimit,
} from '../../services/mongo/index.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import {
  announceIntents,
  appendChanges,
  changeCollections,
  recordIntents,
  trimChanges,
  type ChangeLogTarget,
  type ChangeRetention,
} from '../../services/changes/index.ts';
import type { CompetitionCountsPatch, MemberLinkFact } from '../evolve/index.ts';
import type {
  DerivedDocs,
  DerivedListing,
  OwnDocs,
  ProjectionStore,
  Stamp,
  Stamped,
  Stamps,
  StateByKind,
  StateKind,
  States,
} from './projectionStore.ts';
import type { CategoryRecordKind, CategoryRecords } from './competitionCategoryRecords.ts';
import type { CompetitionEntryRecord } from './competitionEntryRecords.ts';
import type { PersonLinkQuery, PersonLinkRecord } from './personLinkRecords.ts';
import { lostGuards } from './lostGuards.ts';
import { projectionCollections, type ProjectionCollections } from './projectionCollections.ts';
import { writeTallied } from './talliedBulk.ts';
import { withinBudgets } from './withinBudgets.ts';

// Durable before the offsets are committed: the consumer commits only after these return.
const durable: WriteConcern = { w: 'majority', journal: true };

/** Every projection document has a string _id (aggregate ids, fact ids, subject keys). */
type Stored = Document & { _id: string };

export interface WriteCounter {
  (collection: string, writes: number): void;
}

export interface MongoProjectionStoreOptions {
  countWrites?: WriteCounter;
  /** False for a rebuild's generation: its writes must not invalidate the API's cache. */
  live?: boolean;
  /**
   * A live store writes its bulks as transactions only while the server aborts a transaction
   * its client abandoned within this many milliseconds: the consumer group's session timeout,
   * so that when another instance has taken this one's partitions over, nothing this one left
   * open still locks their documents. Unset: never.
   */
  liveTransactionsWithinMs?: number;
  /** How long the change feed keeps changes (live stores only; a rebuild's generation starts its feed at the switch). */
  changeRetention?: ChangeRetention;
}

/** A batch that has not announced its intents after this long has died (or is slow; announcing it is harmless either way). */
const INTENT_STALE_MS = 30_000;

/** How long a live store trusts the server's transaction lifetime it read (a restarted server may have another). */
const LIFETIME_RECHECK_MS = 1_000;

export class MongoProjectionStore implements ProjectionStore {
  readonly names: ProjectionCollections;
  private readonly db: Db;
  private readonly generation: number;
  private readonly countWrites: WriteCounter;
  private readonly live: boolean;
  /**
   * Aggregates whose state the last load did not find: their state and own documents are new,
   * so they are inserted (far cheaper on SecantusDB than a guarded upsert: docs/performance.md,
   * "The projector's writes"). Only a hint:
   * an insert that meets an existing document (a replay after a crash, a clock sweep elsewhere)
   * falls back to the guarded replace, so the outcome is the upsert's either way.
   */
  private readonly absent = new Set<string>();
  private transactionsSupported: Promise<boolean> | undefined;
  private readonly liveTransactionsWithinMs: number | undefined;
  private lifetimeRead: { at: number; fits: Promise<boolean> } | undefined;
  /** Whether this live generation's tallies hold (meta `talliesOf`), read once: only a rebuild makes them hold again, in another generation. */
  private talliesHold: Promise<boolean> | undefined;
  /** The tally slots each listing's writes in flight use (TalliedBulk.slot). */
  private readonly busySlots = new Map<ReadListing, Set<number>>();
  private readonly changeRetention: ChangeRetention | undefined;

  constructor(db: Db, generation: number, opts: MongoProjectionStoreOptions = {}) {
    this.db = db;
    this.generation = generation;
    this.names = projectionCollections(generation);
    this.countWrites = opts.countWrites ?? (() => undefined);
    this.live = opts.live ?? true;
    this.liveTransactionsWithinMs = opts.liveTransactionsWithinMs;
    this.changeRetention = opts.changeRetention;
  }

  private coll(name: string): Collection<Stored> {
    return this.db.collection<Stored>(name);
  }

  async loadStates<K extends StateKind>(kind: K, ids: readonly string[]): Promise<Map<string, StateByKind[K]>> {
    if (ids.length === 0) return new Map();
    const docs = await this.coll(this.names.states[kind])
      .find({ _id: { $in: [...ids] } })
      .toArray();
    // A competition's entries and categories are records of their own (loadCompetitionEntries, loadCompetitionCategories).
    if (kind === 'competition') for (const doc of docs) Object.assign(doc, { entries: {}, starts: {}, categories: {} });
    const found = new Map(docs.map((d) => [String(d._id), d as unknown as StateByKind[K]]));
    if (this.absent.size > 100_000) this.absent.clear();
    for (const id of ids) {
      if (found.has(id)) this.absent.delete(id);
      else this.absent.add(id);
    }
    return found;
  }

  async loadFacts(kind: 'club' | 'coach', subjectIds: readonly string[]): Promise<MemberLinkFact[]> {
    if (subjectIds.length === 0) return [];
    const docs = await this.coll(this.names.memberLinks)
      .find({ kind, subjectId: { $in: [...subjectIds] } }, { projection: { rev: 0, stamp: 0 } })
      .toArray();
    return docs as unknown as MemberLinkFact[];
  }

  async loadMemberFacts(memberRole: 'dancer' | 'coach', memberIds: readonly string[]): Promise<MemberLinkFact[]> {
    if (memberIds.length === 0) return [];
    const docs = await this.coll(this.names.memberLinks)
      .find({ memberId: { $in: [...memberIds] }, memberRole }, { projection: { rev: 0, stamp: 0 } })
      .toArray();
    return docs as unknown as MemberLinkFact[];
  }

  async writeStates(states: States): Promise<void> {
    for (const kind of ['competition', 'person', 'club'] as const) withinBudgets('state', this.names.states[kind], states[kind].values());
    await Promise.all(
      (['competition', 'person', 'club'] as const).map((kind) => {
        // A state never goes back in version (a consumer fenced out by a rebalance loses).
        const ops: AnyBulkWriteOperation<Stored>[] = [...states[kind].values()].map((state) => ({
          replaceOne: { filter: { _id: state._id, version: { $lte: state.version } }, replacement: storedState(state), upsert: true },
        }));
        return this.insertNewThenReplace(this.names.states[kind], ops, (id) => this.absent.has(id));
      }),
    );
    for (const kind of ['competition', 'person', 'club'] as const) for (const id of states[kind].keys()) this.absent.delete(id);
  }

  async writeOwnDocs(docs: OwnDocs, stamps: Stamps): Promise<void> {
    for (const listing of ['competitions', 'dancers', 'judges'] as const)
      withinBudgets('read', this.names.read[listing], docs[listing].values());
    await Promise.all(
      (['competitions', 'dancers', 'judges'] as const).map(async (listing) => {
        const ops = [...docs[listing]].map(([id, doc]) => stampedWrite(id, doc, stamps));
        if (await this.keepsTallies(ops)) await this.writeKeepingTallies(listing, ops);
        else await this.insertNewThenReplace(this.names.read[listing], ops, this.docIsNew);
      }),
    );
    if (docs.competitionCounts) await this.writeCompetitionCounts(docs.competitionCounts, stamps);
  }

  async writeDancerFacts(facts: ReadonlyMap<string, MemberLinkFact>, stamps: Stamps): Promise<void> {
    withinBudgets('fact', this.names.memberLinks, facts.values());
    await this.insertNewThenReplace(
      this.names.memberLinks,
      [...facts.values()].map((fact) => stampedWrite(fact._id, fact, stamps, fact.memberId)),
      () => !this.live,
    );
  }

  /**
   * Whether an own document is likely absent. A rebuild's generation gets each one (and each fact)
   * written once, derived from the final states after the replay (replaySink), so there an insert
   * is the likely outcome; live, only the documents of aggregates whose state the load did not find.
   */
  private readonly docIsNew = (id: string): boolean => !this.live || this.absent.has(id);

  async bumpRevisions(keys: readonly string[]): Promise<void> {
    await this.bulk(
      this.names.revisions,
      keys.map((key) => ({ updateOne: { filter: { _id: key }, update: { $inc: { rev: 1 } }, upsert: true } })),
    );
  }

  async readRevisions(keys: readonly string[]): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const docs = await this.coll(this.names.revisions)
      .find({ _id: { $in: [...keys] } })
      .toArray();
    return new Map(docs.map((d) => [String(d._id), Number(d.rev)]));
  }

  async writeDerived<L extends DerivedListing>(listing: L, docs: readonly Stamped<DerivedDocs[L] | null>[]): Promise<Set<string>> {
    withinBudgets(
      'read',
      this.names.read[listing],
      docs.map((d) => d.value),
    );
    const ops: AnyBulkWriteOperation<Stored>[] = docs.map(({ id, value, rev }) => {
      const filter = { _id: id, rev: { $lt: rev } };
      // A deleted derived document leaves a tombstone holding its revision, so an older
      // derivation cannot bring it back; the API never reads tombstones (no public state).
      const replacement = value === null ? { _id: id, rev, registryState: 'GONE', nextDueAt: null } : { ...value, rev };
      return { replaceOne: { filter, replacement: replacement, upsert: true } };
    });
    const lost = (await this.keepsTallies(ops))
      ? await this.writeKeepingTallies(listing, ops)
      : await this.bulkTolerateDuplicates(this.names.read[listing], ops);
    return new Set(docs.filter((_, i) => !lost.has(i)).map((d) => d.id));
  }

  async writeStaffFacts(facts: readonly Stamped<MemberLinkFact>[]): Promise<void> {
    withinBudgets(
      'fact',
      this.names.memberLinks,
      facts.map((f) => f.value),
    );
    const ops: AnyBulkWriteOperation<Stored>[] = facts.map(({ id, value, rev }) => ({
      replaceOne: { filter: { _id: id, rev: { $lt: rev } }, replacement: { ...value, rev }, upsert: true },
    }));
    await this.bulkTolerateDuplicates(this.names.memberLinks, ops);
  }

  async loadCompetitionEntries(ids: readonly string[]): Promise<CompetitionEntryRecord[]> {
    if (ids.length === 0) return [];
    const docs = await this.coll(this.names.competitionEntries)
      .find({ _id: { $in: [...ids] } })
      .toArray();
    const found = new Set(docs.map((d) => String(d._id)));
    for (const id of ids) if (!found.has(id)) this.absent.add(id);
    return docs as unknown as CompetitionEntryRecord[];
  }

  writeCompetitionEntries(records: readonly CompetitionEntryRecord[]): Promise<void> {
    return this.writeVersionedRecords(this.names.competitionEntries, records, (id) => id);
  }

  /**
   * Records kept beside their aggregate's state (entries, links, categories), each under the
   * guard of the state its batch started from: a record written by a batch that started from a
   * newer state stays (this writer is stale). `absentKey` names a record in `absent`.
   */
  private async writeVersionedRecords(
    collection: string,
    records: readonly (Stored & { _id: string; pv: number })[],
    absentKey: (id: string) => string,
  ): Promise<void> {
    withinBudgets('state', collection, records);
    const ops: AnyBulkWriteOperation<Stored>[] = records.map((record) => ({
      replaceOne: { filter: { _id: record._id, pv: { $lte: record.pv } }, replacement: record, upsert: true },
    }));
    await this.insertNewThenReplace(collection, ops, (id) => this.absent.has(absentKey(id)));
    for (const record of records) this.absent.delete(absentKey(record._id));
  }

  async loadPersonLinks(ids: readonly string[]): Promise<PersonLinkRecord[]> {
    if (ids.length === 0) return [];
    const docs = await this.coll(this.names.personLinks)
      .find({ _id: { $in: [...ids] } })
      .toArray();
    const found = new Set(docs.map((d) => String(d._id)));
    for (const id of ids) if (!found.has(id)) this.absent.add(id);
    return docs as unknown as PersonLinkRecord[];
  }

  async findPersonLinks(query: PersonLinkQuery): Promise<PersonLinkRecord[]> {
    if (query.personIds.length === 0) return [];
    const { endFrom, newerThan, role } = query;
    // One range per find, each on its own index (a top-level $or is a scan on SecantusDB).
    const filters: Document[] = [];
    if (endFrom !== undefined) filters.push({ end: { $gte: endFrom } });
    if (newerThan !== undefined) filters.push({ v: { $gt: newerThan } });
    if (filters.length === 0) filters.push({});
    const personId = { $in: [...new Set(query.personIds)] };
    const found = await Promise.all(
      filters.map((filter) =>
        this.coll(this.names.personLinks)
          .find({ personId, ...filter, ...(role === undefined ? {} : { role }) })
          .toArray(),
      ),
    );
    const byId = new Map(found.flat().map((d) => [String(d._id), d]));
    return [...byId.values()] as unknown as PersonLinkRecord[];
  }

  writePersonLinks(records: readonly PersonLinkRecord[]): Promise<void> {
    return this.writeVersionedRecords(this.names.personLinks, records, (id) => id);
  }

  async loadFactsById(ids: readonly string[]): Promise<MemberLinkFact[]> {
    if (ids.length === 0) return [];
    const docs = await this.coll(this.names.memberLinks)
      .find({ _id: { $in: [...ids] } }, { projection: { rev: 0, stamp: 0 } })
      .toArray();
    return docs as unknown as MemberLinkFact[];
  }

  async loadCategoryRecords<K extends CategoryRecordKind>(kind: K, ids: readonly string[]): Promise<CategoryRecords[K]> {
    if (ids.length === 0) return [];
    const docs = await this.coll(this.categoryCollection(kind))
      .find({ _id: { $in: [...ids] } })
      .toArray();
    const found = new Set(docs.map((d) => String(d._id)));
    for (const id of ids) if (!found.has(id)) this.absent.add(`${kind}|${id}`);
    return docs as unknown as CategoryRecords[K];
  }

  async loadAllCategoryRecords(competitionIds: readonly string[]): Promise<CategoryRecords> {
    // A range of _id per competition (`<id>|` up to `<id>}`, '}' following '|'): the _id index, no index of its own.
    const all = (kind: CategoryRecordKind): Promise<Stored[]> =>
      Promise.all(
        competitionIds.map((id) =>
          this.coll(this.categoryCollection(kind))
            .find({ _id: { $gt: `${id}|`, $lt: `${id}}` } })
            .toArray(),
        ),
      ).then((found) => found.flat());
    const [starts, categories] = await Promise.all([all('starts'), all('categories')]);
    return { starts: starts as unknown as CategoryRecords['starts'], categories: categories as unknown as CategoryRecords['categories'] };
  }

  async writeCategoryRecords(records: CategoryRecords): Promise<void> {
    await Promise.all(
      (['starts', 'categories'] as const).map((kind) =>
        this.writeVersionedRecords(this.categoryCollection(kind), records[kind], (id) => `${kind}|${id}`),
      ),
    );
  }

  private categoryCollection(kind: CategoryRecordKind): string {
    return kind === 'starts' ? this.names.competitionCategoryStarts : this.names.competitionCategories;
  }

  /**
   * Patches of competition documents whose events changed counts only, under the stamp guard of a
   * whole write (a lost guard matches nothing). They change no facet, so they never touch the tallies.
   */
  private async writeCompetitionCounts(patches: ReadonlyMap<string, CompetitionCountsPatch>, stamps: Stamps): Promise<void> {
    const ops: AnyBulkWriteOperation<Stored>[] = [...patches].map(([id, patch]) => {
      const { filter, stamp } = stampGuard(id, stamps);
      const set: Document = { ...patch.set, stamp };
      const arrayFilters: Document[] = [];
      for (const [categoryId, n] of patch.startsCounts) {
        const name = `c${arrayFilters.length}`;
        set[`categories.$[${name}].startsCount`] = n;
        arrayFilters.push({ [`${name}.id`]: categoryId });
      }
      return { updateOne: { filter, update: { $set: set }, ...(arrayFilters.length > 0 ? { arrayFilters } : {}) } };
    });
    await this.bulkTolerateDuplicates(this.names.read.competitions, ops);
  }

  async findDue(listing: keyof ProjectionCollections['read'], now: Date, limit: number): Promise<string[]> {
    const docs = await this.coll(this.names.read[listing])
      .find({ nextDueAt: { $lte: now } }, { projection: { _id: 1 } })
      .sort({ nextDueAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => String(d._id));
  }

  async signalChanged(listings: ReadonlySet<string>): Promise<void> {
    if (this.live && listings.size > 0) await bumpVersions(this.db, this.generation, listings);
  }

  /** The change feed of this generation; only the live store announces (a rebuild's feed starts at its switch). */
  private changeTarget(): ChangeLogTarget {
    return {
      db: this.db,
      names: changeCollections(this.generation),
      read: this.names.read,
      bumpVersions: (listings) => bumpVersions(this.db, this.generation, listings),
      now: () => new Date(),
    };
  }

  async intendChanges(keys: readonly string[]): Promise<string[]> {
    return this.live ? recordIntents(this.changeTarget(), keys) : [];
  }

  async announceChanges(keys: readonly string[], intents: readonly string[]): Promise<void> {
    if (this.live) await appendChanges(this.changeTarget(), keys, intents);
  }

  async maintainChanges(now: Date): Promise<void> {
    if (!this.live) return;
    const target = this.changeTarget();
    // Stale by the clock that stamped the intents (the wall clock's), not the projection clock's `now`.
    await announceIntents(target, new Date(target.now().getTime() - INTENT_STALE_MS));
    if (this.changeRetention) await trimChanges(this.db, target.names, this.changeRetention, now);
  }

  /**
   * Whether these writes to a read collection keep its tallies in the same transaction: when the
   * live generation's tallies hold and bulks are transactions now. When they hold but a write
   * cannot be a transaction (transactions off, or the server's transaction lifetime too long for
   * fail-over: liveTransactions), the tallies are dropped, before the write lands, and the API
   * counts from then on. A rebuild's generation keeps none: countTallies counts it at the end.
   */
  private async keepsTallies(ops: readonly unknown[]): Promise<boolean> {
    if (!this.live || ops.length === 0) return false;
    this.talliesHold ??= readMeta(this.db).then((meta) => meta.talliesOf === this.generation);
    if (!(await this.talliesHold)) return false;
    if (await this.inTransactions()) return true;
    await dropTallies(this.db, this.generation);
    this.talliesHold = Promise.resolve(false);
    return false;
  }

  /** writeTallied in a slot of `listing` no other write of this store uses meanwhile; the ops whose guard lost. */
  private async writeKeepingTallies(listing: ReadListing, ops: AnyBulkWriteOperation<Stored>[]): Promise<Set<number>> {
    const busy = this.busySlots.get(listing) ?? new Set<number>();
    this.busySlots.set(listing, busy);
    let slot = 0;
    while (busy.has(slot)) slot++;
    busy.add(slot);
    try {
      const collection = this.names.read[listing];
      const lost = await writeTallied({ db: this.db, listing, collection, tallies: this.names.tallies, slot, writeConcern: durable }, ops);
      this.countWrites(collection, ops.length - lost.size);
      return lost;
    } finally {
      busy.delete(slot);
    }
  }

  private async bulk(collection: string, ops: AnyBulkWriteOperation<Stored>[]): Promise<void> {
    if (ops.length === 0) return;
    await this.bulkWrite(collection, ops);
    this.countWrites(collection, ops.length);
  }

  /**
   * One unordered bulk write, durable when it returns. Where the server runs multi-document
   * transactions (a replica set, as production and SecantusDB are), the bulk is one transaction:
   * all of it lands or none, and it is committed (and synced) once instead of once per statement,
   * which SecantusDB with --sync-on-commit makes several times faster (docs/performance.md, "The
   * local database"). One attempt: a transaction that fails with a lost guard (duplicate key,
   * after a crash's replay or a race between two instances), a write conflict, an abort by the
   * server or an unknown commit result runs again as a plain bulk, where each op stands alone
   * (guarded, so a write that did land is not applied twice) and the caller learns which lost.
   *
   * A rebuild's generation is always written in transactions. The live one only while
   * `liveTransactions()` holds: it is taken over by another instance when this one dies, and a
   * transaction left open by a killed or paused process keeps its documents locked until the
   * server reaps it (transactionLifetimeLimitSeconds, 60 s by default; a closed connection does
   * not end it), so the instance that took the partitions over would retry its writes against
   * those locks that long (docs/operating.md, "Transactions on the live path").
   */
  private async bulkWrite(collection: string, ops: AnyBulkWriteOperation<Stored>[]): Promise<void> {
    if (await this.inTransactions()) {
      const session = this.db.client.startSession();
      try {
        session.startTransaction({ writeConcern: durable });
        await this.coll(collection).bulkWrite(ops, { ordered: false, session });
        await session.commitTransaction();
        return;
      } catch (error) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        if (lostGuards(error) === null && !retriedPlain(error)) throw error;
      } finally {
        await session.endSession();
      }
    }
    await this.coll(collection).bulkWrite(ops, { ordered: false, writeConcern: durable });
  }

  private async inTransactions(): Promise<boolean> {
    return (await this.transactions()) && (!this.live || (await this.liveTransactions()));
  }

  /**
   * Whether live bulks are transactions now: the server reaps an abandoned transaction within
   * `liveTransactionsWithinMs` (abandonedTransactionGoneWithinMs of its lifetime limit). Read
   * again after a second, as a restarted server may have its default limit back.
   */
  liveTransactions(): Promise<boolean> {
    const within = this.liveTransactionsWithinMs;
    if (within === undefined) return Promise.resolve(false);
    const now = performance.now();
    if (!this.lifetimeRead || now - this.lifetimeRead.at > LIFETIME_RECHECK_MS) {
      const fits = readTransactionLifetimeLimit(this.db).then(
        (limit) => limit !== null && abandonedTransactionGoneWithinMs(limit) <= within,
      );
      this.lifetimeRead = { at: now, fits };
    }
    return this.lifetimeRead.fits;
  }

  /** Whether the server takes multi-document transactions: a replica set member or mongos, not a standalone mongod. */
  private transactions(): Promise<boolean> {
    this.transactionsSupported ??= this.db
      .admin()
      .command({ hello: 1 })
      .then((hello) => typeof hello.setName === 'string' || hello.msg === 'isdbgrid');
    return this.transactionsSupported;
  }

  /**
   * The guarded replace-upserts of documents `isNew` deems absent go in as plain inserts; those
   * that meet a document after all (duplicate key) and every other op run as the guarded upserts.
   */
  private async insertNewThenReplace(
    collection: string,
    ops: AnyBulkWriteOperation<Stored>[],
    isNew: (id: string) => boolean,
  ): Promise<void> {
    const inserts: Stored[] = [];
    const guarded: AnyBulkWriteOperation<Stored>[] = [];
    for (const op of ops) {
      const replacement = 'replaceOne' in op ? (op.replaceOne.replacement as Stored) : undefined;
      if (replacement && isNew(String(replacement._id))) inserts.push(replacement);
      else guarded.push(op);
    }
    if (inserts.length > 0) {
      let existing = new Set<number>();
      try {
        await this.coll(collection).insertMany(inserts, { ordered: false, writeConcern: durable });
      } catch (error) {
        existing = lostGuards(error) ?? rethrow(error);
      }
      this.countWrites(collection, inserts.length - existing.size);
      for (const index of existing) guarded.push(ops.find((op) => 'replaceOne' in op && op.replaceOne.replacement === inserts[index])!);
    }
    await this.bulkTolerateDuplicates(collection, guarded);
  }

  /** A guarded upsert that finds a newer document fails with a duplicate key: that op lost. */
  private async bulkTolerateDuplicates(collection: string, ops: AnyBulkWriteOperation<Stored>[]): Promise<Set<number>> {
    if (ops.length === 0) return new Set();
    try {
      await this.bulkWrite(collection, ops);
      this.countWrites(collection, ops.length);
      return new Set();
    } catch (error) {
      const lost = lostGuards(error) ?? rethrow(error);
      this.countWrites(collection, ops.length - lost.size);
      return lost;
    }
  }
}

/**
 * A write of a stamped document (a null deletes): it lands only over an older stamp. The filter
 * is the predicate `{_id, $or}` put under `$and`, because SecantusDB runs a write whose filter
 * has a top-level `$or` beside `_id` as a scan, though its explain shows the _id index
 * (docs/local-database.md; the cost is in docs/performance.md).
 */
function stampedWrite(id: string, doc: object | null, stamps: Stamps, aggregateId = id): AnyBulkWriteOperation<Stored> {
  const { filter, stamp } = stampGuard(id, stamps, aggregateId);
  return doc === null ? { deleteOne: { filter } } : { replaceOne: { filter, replacement: { ...doc, stamp }, upsert: true } };
}

/** The stamp of a document of `aggregateId` and the filter under which a write of it lands. */
function stampGuard(id: string, stamps: Stamps, aggregateId = id): { filter: Document; stamp: Stamp } {
  const stamp: Stamp = { v: stamps.versions.get(aggregateId) ?? 0, at: stamps.stampAt };
  const filter = {
    $and: [{ _id: id }, { $or: [{ 'stamp.v': { $lt: stamp.v } }, { 'stamp.v': stamp.v, 'stamp.at': { $lte: stamp.at } }] }],
  };
  return { filter, stamp };
}

/** A state as its collection holds it: a competition's without its entries and categories (competition_entries and competition_categories hold them). */
function storedState(state: StateByKind[StateKind]): Stored {
  if (!('entries' in state)) return state;
  const { entries: _entries, starts: _starts, categories: _categories, ...stored } = state;
  return stored;
}

function rethrow(error: unknown): never {
  throw error;
}

/** A transaction that failed for a reason the same writes as a plain bulk get past: a conflict, an abort, an unknown commit. */
function retriedPlain(error: unknown): boolean {
  return (
    error instanceof MongoError &&
    (error.hasErrorLabel('TransientTransactionError') || error.hasErrorLabel('UnknownTransactionCommitResult'))
  );
}
