import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import { ensureMeta, switchGeneration } from '../../services/mongo/index.ts';
import { ensureWriterIndexes } from '../../services/readModel/indexPlan.ts';
import { READ_MODEL_FORMAT, TALLIES_SINCE_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { derivationFailed } from '../clock/derivationFailed.ts';
import { sweepDue } from '../clock/sweepDue.ts';
import { liveGroupId } from '../consume/liveGroupId.ts';
import type { ProjectorContext } from '../projectorContext.ts';
import { DERIVATION_ORDER } from '../write/deriveDeferred.ts';
import { allCollectionNames, projectionCollections, type ProjectionCollections } from '../write/projectionCollections.ts';
import { countTallies } from './countTallies.ts';
import { holdBuildClaim, type BuildClaimOptions, type HeldClaim } from './holdBuildClaim.ts';
import { replayTopic, type Replayed } from './replayTopic.ts';

export interface RebuildOptions extends ProjectorContext {
  /** How long the old generation stays after the switch, for requests already reading it. */
  dropAfterMs?: number;
  /** Return at the switch and drop the old generation in the background (a projector's upgrade). */
  returnAtSwitch?: boolean;
  /** How this process holds the build claim (owner, heartbeat); the switch happens only while it does. */
  claim?: BuildClaimOptions;
  /** Called as the replay advances (events of the topic applied, of `total`). */
  onProgress?: (progress: { applied: number; total: number }) => void;
  /** Called as the work after the replay moves on, with what it does now (a human phrase). */
  onStage?: (stage: string) => void;
  /** How long the replay may apply nothing before the build gives its claim back (BUILD_NO_PROGRESS_MS by default). */
  noProgressMs?: number;
}

export interface RebuildResult {
  from: number;
  to: number;
  messages: number;
  seconds: number;
}

/**
 * Replays the topic from the earliest offset into the next generation while the API keeps
 * serving the live one, applies the clock at the end, then switches generations with one atomic
 * write that records the generation's format. The replay uses the next generation's live
 * consumer group, so the running projectors, which follow the switch, continue from exactly
 * where the replay stopped. The old generation is dropped `dropAfterMs` later, for requests
 * still reading it; with `returnAtSwitch` in the background. All of it under the build claim
 * (holdBuildClaim): a second rebuild, format upgrade or bootstrap of the same generation is
 * refused instead of clearing this one's collections.
 */
export async function rebuildReadModel(opts: RebuildOptions): Promise<RebuildResult> {
  const began = performance.now();
  const from = (await ensureMeta(opts.db, opts.format)).generation;
  const claim = await holdBuildClaim(opts, from, opts.claim);
  let messages: number;
  try {
    messages = await buildAndSwitch(opts, claim, from);
  } catch (error) {
    // Given back whatever stopped the build (a lost claim is no longer ours: the release matches nothing).
    await claim.release().catch(() => undefined);
    opts.logger.error({ err: error, owner: claim.owner, from }, 'the build of the next generation stopped; its claim is given back');
    throw error;
  } finally {
    claim.stop();
  }
  const retired = retireGeneration(opts, from);
  if (!opts.returnAtSwitch) await retired;
  else retired.catch((error: unknown) => opts.logger.warn({ err: error, generation: from }, 'could not drop the old generation'));
  return { from, to: from + 1, messages, seconds: (performance.now() - began) / 1000 };
}

/** Builds generation `from + 1` under `claim` and switches to it; returns the messages replayed. */
async function buildAndSwitch(opts: RebuildOptions, claim: HeldClaim, from: number): Promise<number> {
  const to = from + 1;
  const admin = opts.kafka.admin();
  await admin.connect();
  let replayed: Replayed;
  try {
    await prepareGeneration(opts, admin, to);
    replayed = await replayTopic(opts, admin, from, to, claim.lost);
  } finally {
    await admin.disconnect();
  }
  claim.lost.throwIfAborted();
  await deriveAndIndex(opts, replayed, to);
  claim.lost.throwIfAborted();
  opts.onStage?.('indexes built; applying the clock, then switching');
  const sweeping = performance.now();
  const swept = await sweepDue(replayed.store, opts.projection, opts.clock(), derivationFailed(opts));
  // Nothing writes the new generation between this count and the switch; the live stores keep the tallies from there.
  const tallied = (opts.format ?? READ_MODEL_FORMAT) >= TALLIES_SINCE_FORMAT;
  if (tallied) opts.onStage?.('clock applied; counting the tallies, then switching');
  const tallies = tallied ? await countTallies(opts.db, projectionCollections(to)) : 0;
  claim.lost.throwIfAborted();
  // The switch removes the claim: its heartbeat must not take that for a takeover.
  claim.stop();
  if (!(await switchGeneration(opts.db, from, to, { format: opts.format, owner: claim.owner, tallied }))) {
    throw new Error(`generation ${from} is no longer live, or its build claim was taken over; not switched`);
  }
  opts.metrics.rebuildProgress.set(1);
  opts.onStage?.(`switched to generation ${to}; generation ${from} is dropped ${Math.round((opts.dropAfterMs ?? 30_000) / 1000)} s later`);
  opts.logger.info(
    { from, to, format: opts.format, swept, tallies, sweepSeconds: secondsSince(sweeping) },
    'switched to the rebuilt generation',
  );
  return replayed.messages;
}

/** Clears what an interrupted rebuild left of generation `to` and gives it the writer's indexes. */
async function prepareGeneration(opts: RebuildOptions, admin: Admin, to: number): Promise<void> {
  const next = projectionCollections(to);
  // Leftovers of an interrupted rebuild would mix into this one.
  await dropCollections(opts.db, next);
  await admin.deleteGroups([liveGroupId(opts.groupId, to)]).catch(() => undefined);
  // The API's and the clock's indexes are built once the collections are full (see ensureWriterIndexes).
  await ensureWriterIndexes(opts.db, next);
}

/**
 * The replay wrote states only: the documents are derived once from the final ones, and the
 * indexes of each listing build as soon as its documents are all written, beside the derivation
 * of the next (on SecantusDB an index build holds a global lock that plain writes to other
 * collections do not take, so the build, the server's, and the derivation, mostly ours, share
 * the two cores instead of taking turns).
 */
async function deriveAndIndex(opts: RebuildOptions, { sink }: Replayed, to: number): Promise<void> {
  const next = projectionCollections(to);
  const indexing = performance.now();
  const builds: Promise<void>[] = [];
  opts.onStage?.('every event replayed; deriving the competitions');
  const derived = await sink.deriveDeferred((listings) => {
    opts.logger.info({ to, listings }, 'rebuild is building the indexes of derived listings');
    const following = DERIVATION_ORDER[DERIVATION_ORDER.findIndex((step) => step.listings === listings) + 1]?.listings;
    opts.onStage?.(`${listings.join(' and ')} derived, indexes building${following ? `; deriving the ${following.join(' and ')}` : ''}`);
    const build = opts.ensureIndexes(opts.db, next, listings, opts.format);
    // Awaited below; this only keeps a build that fails during the derivation from being unhandled.
    build.catch(() => undefined);
    builds.push(build);
  }, derivationFailed(opts));
  opts.logger.info({ to, ...derived, seconds: secondsSince(indexing) }, 'rebuild derived the documents of the new generation');
  opts.onStage?.('every document derived; finishing the indexes');
  await Promise.all(builds);
  await opts.ensureIndexes(opts.db, next, undefined, opts.format);
  opts.logger.info({ to, seconds: secondsSince(indexing) }, 'rebuild built the indexes of the new generation');
}

/** Drops the replaced generation and its consumer group once requests reading it have ended. */
async function retireGeneration(opts: RebuildOptions, generation: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, opts.dropAfterMs ?? 30_000));
  await dropCollections(opts.db, projectionCollections(generation));
  const admin = opts.kafka.admin();
  await admin.connect();
  try {
    await admin.deleteGroups([liveGroupId(opts.groupId, generation)]).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

async function dropCollections(db: Db, collections: ProjectionCollections): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  await Promise.all(
    allCollectionNames(collections)
      .filter((name) => existing.has(name))
      .map((name) => db.dropCollection(name)),
  );
}

const secondsSince = (began: number): number => Math.round((performance.now() - began) / 100) / 10;
