import type { Admin } from 'kafkajs';
import { REPLAY_CHUNK_SIZE, REPLAY_FETCH_LIMITS, runConsumer, type RunningConsumer } from '../consume/runConsumer.ts';
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
 * "The rebuild".
 */
export const REPLAY_PARTITIONS_AT_ONCE = 2;

/**
 * How long a replay may go without applying a chunk before its builder gives the claim back and
 * says why (a partition stalled on the database, a broker that hands nothing): another instance,
 * or the next start, builds instead of every projector waiting on this one.
 */
export const BUILD_NO_PROGRESS_MS = 5 * 60_000;

/** The replay applied nothing for the stated time: its builder gives its claim back. */
export class BuildStalled extends Error {
  override name = 'BuildStalled';
}

export interface Replayed {
  messages: number;
  store: MongoProjectionStore;
  sink: ReturnType<typeof replaySink>;
}

/**
 * Replays every partition from its earliest offset up to the end offsets it finds at the start
 * into generation `to`, writing the aggregates' states (the rest is derived after: see
 * replaySink), with its progress on the metrics and `onProgress`. Stops, with the reason, when
 * `lost` is aborted (the build claim was taken over) or no chunk is applied for
 * `opts.noProgressMs` (BUILD_NO_PROGRESS_MS by default).
 */
export async function replayTopic(opts: RebuildOptions, admin: Admin, from: number, to: number, lost: AbortSignal): Promise<Replayed> {
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
  const { promise: finished, resolve: finish, reject: stop } = Promise.withResolvers<void>();
  if (remaining.size === 0) finish();
  // Awaited once the consumer runs; a stop before that must not count as unhandled.
  finished.catch(() => undefined);
  const watch = watchReplay(opts, lost, stop);
  let consumer: RunningConsumer | undefined;
  try {
    consumer = await runConsumer({
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
        watch.progressed();
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
  } finally {
    watch.end();
    await consumer?.stop();
  }
  return { messages: total, store, sink };
}

/**
 * Calls `stop` with the reason when `lost` is aborted, or when `progressed()` has not been called
 * for `opts.noProgressMs`, naming the partitions stalled meanwhile; `end()` stops watching.
 */
function watchReplay(opts: RebuildOptions, lost: AbortSignal, stop: (reason: unknown) => void): { progressed(): void; end(): void } {
  let progressedAt = performance.now();
  const onLost = (): void => stop(lost.reason);
  lost.addEventListener('abort', onLost, { once: true });
  const noProgressMs = opts.noProgressMs ?? BUILD_NO_PROGRESS_MS;
  const watchdog = setInterval(
    () => {
      if (performance.now() - progressedAt < noProgressMs) return;
      const stalled = opts.metrics.partitions
        .stalled()
        .map((p) => `partition ${p.partition} at offset ${p.offset}${p.lastError ? ` (${p.lastError})` : ''}`);
      const where = stalled.length > 0 ? `: ${stalled.join('; ')}` : '';
      stop(new BuildStalled(`the replay applied nothing for ${Math.round(noProgressMs / 1000)} s${where}; the build claim is given back`));
    },
    Math.min(5_000, noProgressMs),
  );
  return {
    progressed: () => void (progressedAt = performance.now()),
    end: () => {
      clearInterval(watchdog);
      lost.removeEventListener('abort', onLost);
    },
  };
}
