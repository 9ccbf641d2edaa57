import type { Db } from 'mongodb';
import { readCollections } from '../readModel/documents.ts';
import { READ_MODEL_FORMAT, TALLIES_SINCE_FORMAT } from '../readModel/readModelFormat.ts';
import { layoutOf, type ReadModelLayout } from '../readModel/readModelLayout.ts';

/**
 * One small document tells every process which generation of the read collections is live and
 * how far each listing has changed:
 *   { _id: 'current', generation: 3, versions: { competitions: 17, ... } }
 * The API reads it with an `_id` lookup (cheap on any MongoDB-wire server) and keys its cache
 * on `generation:version`, so a projector write or a rebuild's switch invalidates every API
 * instance's cache at once. A rebuild fills generation N+1 beside the live N and switches by
 * rewriting this one document (single-document writes are atomic).
 */
export const META_COLLECTION = 'read_model_meta';
const CURRENT = 'current';

export interface ReadModelMeta {
  generation: number;
  /**
   * The format the live generation was built in (services/readModel/readModelFormat.ts): 1 for
   * a model from before formats were recorded.
   */
  format: number;
  /** How the API reads a generation of that format; null when this code does not serve it (readModelLayout.ts). */
  layout: ReadModelLayout | null;
  versions: Record<string, number>;
  /**
   * The instant up to which the read model is known current: every event the topic held then
   * has been applied (the projectors record it when their group's committed offsets reached the
   * end offsets read at that instant). Null until a projector has been caught up once.
   */
  currentAt: Date | null;
  /**
   * The generation whose tallies (projector/write/talliedBulk.ts) are the counts of its
   * documents: set when a generation starts empty or a rebuild has counted them, removed for
   * good by the first write that cannot keep them (no transaction). Null: the API counts.
   */
  talliesOf: number | null;
}

interface MetaDocument extends Omit<ReadModelMeta, 'layout'> {
  _id: string;
  switchedAt?: Date;
  bootstrapClaimedAt?: Date;
}

export function collectionName(base: string, generation: number): string {
  return `${base}_g${generation}`;
}

async function findMeta(db: Db): Promise<ReadModelMeta | null> {
  const doc = await db.collection<MetaDocument>(META_COLLECTION).findOne({ _id: CURRENT });
  return doc
    ? {
        generation: doc.generation,
        format: doc.format ?? 1,
        layout: layoutOf(doc.format ?? 1),
        versions: doc.versions ?? {},
        currentAt: doc.currentAt ?? null,
        talliesOf: doc.talliesOf ?? null,
      }
    : null;
}

/**
 * The live generation and versions; generation 1 with no versions while no projector has
 * written the document. Reads only: the API may run with a read-only database user.
 */
export async function readMeta(db: Db): Promise<ReadModelMeta> {
  return (
    (await findMeta(db)) ?? {
      generation: 1,
      format: READ_MODEL_FORMAT,
      layout: layoutOf(READ_MODEL_FORMAT),
      versions: {},
      currentAt: null,
      talliesOf: null,
    }
  );
}

/**
 * readMeta for the writers (projector, rebuild): creates generation 1 when missing, because
 * version bumps and generation switches only update an existing document. An empty model is of
 * the writer's format, and its tallies, all zero, count it when that format keeps them.
 */
export async function ensureMeta(db: Db, format = READ_MODEL_FORMAT): Promise<ReadModelMeta> {
  const found = await findMeta(db);
  if (found) return found;
  const talliesOf = format >= TALLIES_SINCE_FORMAT && (await generationIsEmpty(db, 1)) ? 1 : null;
  try {
    await db
      .collection<MetaDocument>(META_COLLECTION)
      .insertOne({ _id: CURRENT, generation: 1, format, versions: {}, currentAt: null, talliesOf });
  } catch (error) {
    // Another process created it first: read theirs.
    if ((error as { code?: number }).code !== 11000) throw error;
  }
  return readMeta(db);
}

/** Whether no read collection of `generation` holds a document (a model older than its meta document may). */
async function generationIsEmpty(db: Db, generation: number): Promise<boolean> {
  const found = await Promise.all(
    Object.values(readCollections).map((base) => db.collection(collectionName(base, generation)).findOne({}, { projection: { _id: 1 } })),
  );
  return found.every((doc) => doc === null);
}

/**
 * Records that `generation`'s tallies no longer count its documents: before a write that does
 * not keep them lands. For good: only a rebuild counts them again, into its new generation.
 */
export async function dropTallies(db: Db, generation: number): Promise<void> {
  await db.collection<MetaDocument>(META_COLLECTION).updateOne({ _id: CURRENT, talliesOf: generation }, { $set: { talliesOf: null } });
}

/**
 * Marks listings as changed. Only the live generation's writes bump, so a rebuild filling the
 * next generation never invalidates caches of what the API still serves.
 */
export async function bumpVersions(db: Db, generation: number, listings: Iterable<string>): Promise<void> {
  const inc: Record<string, number> = {};
  for (const listing of listings) inc[`versions.${listing}`] = 1;
  if (Object.keys(inc).length === 0) return;
  await db.collection<MetaDocument>(META_COLLECTION).updateOne({ _id: CURRENT, generation }, { $inc: inc });
}

/**
 * Records that the live generation holds every event the topic held at `instant`. `$max` keeps
 * it monotonic when several projector instances record at once, and the generation guard keeps
 * a rebuild's replay from speaking for the generation the API still serves.
 */
export async function recordCurrentAt(db: Db, generation: number, instant: Date): Promise<void> {
  await db.collection<MetaDocument>(META_COLLECTION).updateOne({ _id: CURRENT, generation }, { $max: { currentAt: instant } });
}

/**
 * Claims the one bootstrap of an empty read model (see projector/bootstrap): true for the first
 * caller of a generation only, whatever the number of projector instances starting together.
 */
export async function claimBootstrap(db: Db, generation: number): Promise<boolean> {
  const result = await db
    .collection<MetaDocument>(META_COLLECTION)
    .updateOne({ _id: CURRENT, generation, bootstrapClaimedAt: { $exists: false } }, { $set: { bootstrapClaimedAt: new Date() } });
  return result.modifiedCount === 1;
}

/**
 * Gives back the bootstrap claim of a generation that is still live (a bootstrap stopped before
 * its switch), so that the next start bootstraps again instead of projecting the long log live.
 */
export async function releaseBootstrap(db: Db, generation: number): Promise<void> {
  await db.collection<MetaDocument>(META_COLLECTION).updateOne({ _id: CURRENT, generation }, { $unset: { bootstrapClaimedAt: '' } });
}

export interface SwitchOptions {
  /** The format `next` was built in. */
  format?: number;
  /** When the build was claimed (buildClaim.ts): the switch happens only while this owner holds the claim. */
  owner?: string;
  /** Whether `next`'s tallies were counted after its last write (countTallies); otherwise the API counts. */
  tallied?: boolean;
}

/** Atomically makes `next` the live generation, only if `previous` still is (and `owner` holds the claim). */
export async function switchGeneration(db: Db, previous: number, next: number, options: SwitchOptions = {}): Promise<boolean> {
  const { format = READ_MODEL_FORMAT, owner, tallied = false } = options;
  const result = await db.collection<MetaDocument>(META_COLLECTION).updateOne(
    { _id: CURRENT, generation: previous, ...(owner === undefined ? {} : { 'build.owner': owner }) },
    {
      $set: { generation: next, format, versions: {}, currentAt: null, talliesOf: tallied ? next : null, switchedAt: new Date() },
      $unset: { build: '' },
    },
  );
  return result.modifiedCount === 1;
}
