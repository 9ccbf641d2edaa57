import type { Db } from 'mongodb';
import { ensureMeta, switchGeneration } from '../../services/mongo/index.ts';
import { derivationFailed } from '../clock/derivationFailed.ts';
import { sweepDue } from '../clock/sweepDue.ts';
import { REPLAY_CHUNK_SIZE, REPLAY_FETCH_LIMITS, runConsumer } from '../consume/runConsumer.ts';
import type { ProjectorContext } from '../projectorContext.ts';
import { liveGroupId } from '../consume/liveGroupId.ts';
import { MongoProjectionStore } from '../write/mongoProjectionStore.ts';
import { allCollectionNames, projectionCollections, type ProjectionCollections } from '../write/projectionCollections.ts';
import { ensureWriterIndexes } from '../../services/readModel/indexPlan.ts';
import { replaySink } from '../write/projectionSink.ts';
import { DERIVATION_ORDER } from '../write/deriveDeferred.ts';

export interface RebuildOptions extends ProjectorContext {
  /** How long the old generation stays after the switch, for requests already reading it. */
  dropAfterMs?: number;
  /** Called as the replay advances (events of the topic applied, of `total`). */
  onProgress?: (progress: { applied: number; total: number }) => void;
  /** Called as the work after the replay moves on, with what it does now (a human phrase). */
  onStage?: (stage: string) => void;
}

export interface RebuildResult {
  from: number;
  to: number;
  messages: number;
  seconds: number;
}

/**
 * Partitions the replay folds and writes at once, so that one partition's decoding and folding
 * (ours) overlaps another's writes (the database's): with one at a time, the local SecantusDB sat
 * at one core while Node waited on it. Partitions hold disjoint aggregates and the replay defers
 * what they share (coaches, clubs) to its end, so their writes never touch the same documents;
 * this is what two projector instances do live. On 1,007,694 events (one run each): one at a time
 * 185 s, two 169 s, when chunks still wrote documents; with chunks writing states only, three
 * replayed in 56 s instead of 59 s for 480 MB peak RSS instead of 449 MB under the heap cap.
 */
export const REPLAY_PARTITIONS_AT_ONCE = 2;

/**
 * Replays the topic from the earliest offset into the next generation while the API keeps
 * serving the live one, applies the clock at the end, then switches generations with one atomic
 * write. The replay uses the next generation's live consumer group, so the running projectors,
 * which follow the switch, continue from exactly where the replay stopped.
 */
export async function rebuildReadModel(opts: RebuildOptions): Promise<RebuildResult> {
  const began = performance.now();
  const from = (await ensureMeta(opts.db)).generation;
  const to = from + 1;
  const next = projectionCollections(to);
  const admin = opts.kafka.admin();
  await admin.connect();
  try {
    // Leftovers of an interrupted rebuild would mix into this one.
    await dropCollections(opts.db, next);
    await admin.deleteGroups([liveGroupId(opts.groupId, to)]).catch(() => undefined);
    // The API's and the clock's indexes are built once the collections are full (see ensureWriterIndexes).
    await ensureWriterIndexes(opts.db, next);

    const ends = await admin.fetchTopicOffsets(opts.topic);
    const remaining = new Map(
      ends.filter((p) => BigInt(p.high) > BigInt(p.low)).map((p) => [p.partition, { low: BigInt(p.low), high: BigInt(p.high) }]),
    );
    const total = [...remaining.values()].reduce((sum, p) => sum + Number(p.high - p.low), 0);
    const done = new Map<number, number>();
    opts.logger.info({ from, to, messages: total }, 'rebuild started');
    opts.metrics.rebuildProgress.set(0);

    const store = new MongoProjectionStore(opts.db, to, {
      live: false,
      countWrites: (collection, n) => opts.metrics.databaseWrites.inc({ collection }, n),
    });
    const sink = replaySink(store, opts.projection, opts.clock);
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    if (remaining.size === 0) finish();
    const consumer = await runConsumer({
      kafka: opts.kafka,
      topic: opts.topic,
      dlqTopic: opts.dlqTopic,
      groupId: liveGroupId(opts.groupId, to),
      sink,
      metrics: opts.metrics,
      logger: opts.logger,
      clock: opts.clock,
      chunkSize: opts.chunkSize ?? REPLAY_CHUNK_SIZE,
      fetchLimits: REPLAY_FETCH_LIMITS,
      partitionsConsumedConcurrently: REPLAY_PARTITIONS_AT_ONCE,
      onProgress: ({ partition, offset }) => {
        const target = remaining.get(partition);
        if (!target) return;
        done.set(partition, Number(BigInt(offset) + 1n - target.low));
        const replayed = [...done.values()].reduce((a, b) => a + b, 0);
        opts.metrics.rebuildEvents.set(replayed);
        opts.onProgress?.({ applied: replayed, total });
        opts.metrics.rebuildProgress.set(total === 0 ? 1 : Math.min(1, replayed / total));
        if (BigInt(offset) + 1n >= target.high) remaining.delete(partition);
        if (remaining.size === 0) finish();
      },
    });
    await finished;
    await consumer.stop();
    // The replay wrote states only: the documents are derived once from the final ones, and the
    // indexes of each listing build as soon as its documents are all written, beside the
    // derivation of the next (on SecantusDB an index build holds a global lock that plain writes
    // to other collections do not take, so the build, the server's, and the derivation, mostly
    // ours, share the two cores instead of taking turns).
    const indexing = performance.now();
    const builds: Promise<void>[] = [];
    opts.onStage?.('every event replayed; deriving the competitions');
    const derived = await sink.deriveDeferred((listings) => {
      opts.logger.info({ to, listings }, 'rebuild is building the indexes of derived listings');
      const following = DERIVATION_ORDER[DERIVATION_ORDER.findIndex((step) => step.listings === listings) + 1]?.listings;
      opts.onStage?.(`${listings.join(' and ')} derived, indexes building${following ? `; deriving the ${following.join(' and ')}` : ''}`);
      const build = opts.ensureIndexes(opts.db, next, listings);
      // Awaited below; this only keeps a build that fails during the derivation from being unhandled.
      build.catch(() => undefined);
      builds.push(build);
    }, derivationFailed(opts));
    opts.logger.info({ to, ...derived, seconds: secondsSince(indexing) }, 'rebuild derived the documents of the new generation');
    opts.onStage?.('every document derived; finishing the indexes');
    await Promise.all(builds);
    await opts.ensureIndexes(opts.db, next);
    opts.logger.info({ to, seconds: secondsSince(indexing) }, 'rebuild built the indexes of the new generation');

    opts.onStage?.('indexes built; applying the clock, then switching');
    const sweeping = performance.now();
    const swept = await sweepDue(store, opts.projection, opts.clock(), derivationFailed(opts));
    const sweepSeconds = secondsSince(sweeping);
    if (!(await switchGeneration(opts.db, from, to)))
      throw new Error(`generation ${from} is no longer live; another rebuild switched first`);
    opts.metrics.rebuildProgress.set(1);
    opts.logger.info({ from, to, swept, sweepSeconds }, 'switched to the rebuilt generation');

    await new Promise((resolve) => setTimeout(resolve, opts.dropAfterMs ?? 30_000));
    await dropCollections(opts.db, projectionCollections(from));
    await admin.deleteGroups([liveGroupId(opts.groupId, from)]).catch(() => undefined);
    return { from, to, messages: total, seconds: (performance.now() - began) / 1000 };
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
