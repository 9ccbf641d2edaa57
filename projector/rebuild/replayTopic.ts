import type { Admin } from 'kafkajs';
import { REPLAY_CHUNK_SIZE, REPLAY_FETCH_LIMITS, runConsumer } from '../consume/runConsumer.ts';
import { liveGroupId } from '../consume/liveGroupId.ts';
import { MongoProjectionStore } from '../write/mongoProjectionStore.ts';
import { replaySink } from '../write/projectionSink.ts';
import type { RebuildOptions } from './rebuildReadModel.ts';

/**
 * Partitions the replay folds and writes at once, so that one partition's decoding and folding
 * (ours) overlaps another's writes (the database's): with one at a time, the local SecantusDB sat
 * at one core while Node waited on it. Partitions hold disjoint aggregates and the replay defers
 * what they share (coaches, clubs) to its end, so their writes never touch the same documents;
 * this is what two projector instances do live. Why two and not one or three: docs/performance.md,
 * "History of the rebuild".
 */
export const REPLAY_PARTITIONS_AT_ONCE = 2;

export interface Replayed {
  messages: number;
  store: MongoProjectionStore;
  sink: ReturnType<typeof replaySink>;
}

/**
 * Replays every partition from its earliest offset up to the end offsets it finds at the start
 * into generation `to`, writing the aggregates' states (the rest is derived after: see
 * replaySink), with its progress on the metrics and `onProgress`.
 */
export async function replayTopic(opts: RebuildOptions, admin: Admin, from: number, to: number): Promise<Replayed> {
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
  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
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
  return { messages: total, store, sink };
}
