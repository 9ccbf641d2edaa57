import { Partitioners, type Consumer, type Kafka, type Producer } from 'kafkajs';
import { MEMBERSHIP_DEFAULTS } from '../../services/config/index.ts';
import type { Logger } from '../../services/logger.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { chunkApplier, type EventSink } from './applyChunk.ts';
import { batchHandler } from './batchHandler.ts';

export interface ConsumerOptions {
  kafka: Kafka;
  topic: string;
  dlqTopic: string;
  groupId: string;
  sink: EventSink;
  metrics: ProjectorMetrics;
  logger: Logger;
  clock: () => Date;
  /** Messages folded and written together; bigger chunks mean fewer writes per event. Default DEFAULT_CHUNK_SIZE. */
  chunkSize?: number;
  /** Fetch sizes; default FETCH_LIMITS (a rebuild fetches more, see REPLAY_FETCH_LIMITS). */
  fetchLimits?: { maxBytes: number; maxBytesPerPartition: number };
  partitionsConsumedConcurrently?: number;
  /** The group membership's timings (services/config/groupMembership.ts); each defaults to MEMBERSHIP_DEFAULTS. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  rebalanceTimeoutMs?: number;
  /** Called after each chunk is committed, with the partition's remaining lag. */
  onProgress?: (progress: { partition: number; offset: string; lag: number }) => void;
}

export interface RunningConsumer {
  isRunning(): boolean;
  /** Milliseconds since the consumer stopped other than by stop() (null while it runs or rejoins). */
  stoppedForMs(): number | null;
  stop(): Promise<void>;
}

/** The session timeout when none is given (the configuration's default, KAFKA_SESSION_TIMEOUT_MS). */
export const DEFAULT_SESSION_TIMEOUT_MS = MEMBERSHIP_DEFAULTS.sessionTimeoutMs;

/**
 * A chunk writes each document it touches once, however many of its events touch it, so while
 * catching up (a replay, a backlog) a bigger chunk writes and derives less per event: over
 * 200,000 generated events (`npm run bench:pipeline`), chunks of 10,000 issued 0.84 writes per
 * event, of 5,000 1.15, of 2,000 1.50 and of 1,000 1.72. Live, a batch holds only what arrived
 * since the last fetch, so chunks stay small and latency is not traded for it.
 */
export const DEFAULT_CHUNK_SIZE = 10_000;

/**
 * Fetch sizes of the projector's consumer (and of the benchmark's no-op consumer, so the two are
 * compared on the same fetches). With kafkajs's default of 1 MB per partition, a replay of the
 * generated history came in batches of ~2,300 events (median), which capped every chunk there;
 * 4 MB gives ~10,000, one chunk. 8 MB gave ~20,000 for 50 MB more peak RSS and no fewer writes.
 */
export const FETCH_LIMITS = { maxBytes: 16 * 1024 * 1024, maxBytesPerPartition: 4 * 1024 * 1024 } as const;

/**
 * A rebuild reads the whole log and serves nothing until it ends, so it trades memory and
 * latency for fewer writes: chunks of 25,000. On the 502,287-event demo history into the local
 * SecantusDB (bench:pipeline --writer-indexes-only), the replay took 64.1 s in chunks of 10,000
 * (1.81 store items per event), 41.9 s in chunks of 25,000 (1.27) and 38.9 s in chunks of 50,000
 * (1.00). Fetches of 6 MB per partition (24 MB in all), not 12 (48): on 1,007,694 events the
 * rebuild's fetched buffers fell from about 200 MB to about 100 MB and its peak RSS from 827 MB
 * to 749 MB (with the smaller club slices of deriveDeferred), for 7 % more writes (950,134
 * against 887,413) in the same time (231 s against 229 s; one run each). With the replay writing
 * states only, two partitions at once and the heap cap, 3 MB per partition (12 MB in all): peak
 * RSS 426 and 439 MB in two runs, against 433-509 MB in five runs at 6 MB (the no-op consumer
 * alone peaks at 436 MB with 16 MB fetches), for 8 % more writes (661,000 against 610,000) and
 * 152-155 s against 143-154 s.
 */
export const REPLAY_CHUNK_SIZE = 25_000;
export const REPLAY_FETCH_LIMITS = { maxBytes: 12 * 1024 * 1024, maxBytesPerPartition: 3 * 1024 * 1024 } as const;

/**
 * A consumer-group member that validates every message, dead-letters the bad ones, folds the
 * rest through the sink and commits offsets only after the sink's writes are durable. A crash at
 * any point replays from the last commit; the sink is idempotent, so nothing is lost or counted
 * twice.
 */
export async function runConsumer(opts: ConsumerOptions): Promise<RunningConsumer> {
  const sessionTimeout = opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const heartbeatInterval = Math.min(opts.heartbeatIntervalMs ?? MEMBERSHIP_DEFAULTS.heartbeatIntervalMs, sessionTimeout / 3);
  const producer: Producer = opts.kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const eachBatch = batchHandler({
    chunkSize: opts.chunkSize ?? DEFAULT_CHUNK_SIZE,
    heartbeatIntervalMs: heartbeatInterval,
    applyChunk: chunkApplier({ ...opts, producer }),
    metrics: opts.metrics,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  let running = false;
  const setRunning = (value: boolean): void => {
    running = value;
    opts.metrics.consumerRunning.set(value ? 1 : 0);
  };
  let current: Consumer | null = null;
  let stopping = false;
  let stoppedAt: number | null = null;
  const restarts = restartBackoff();

  /** A new group member: kafkajs cannot run a consumer again once it has crashed for good. */
  async function start(): Promise<void> {
    const consumer: Consumer = opts.kafka.consumer({
      groupId: opts.groupId,
      sessionTimeout,
      heartbeatInterval,
      rebalanceTimeout: opts.rebalanceTimeoutMs ?? MEMBERSHIP_DEFAULTS.rebalanceTimeoutMs,
      // kafkajs heartbeats (and so learns of a rebalance) only between fetches, and stops only once
      // the fetch in flight returns: with its 5 s default wait a quiet topic delayed both.
      maxWaitTimeInMs: heartbeatInterval,
      ...(opts.fetchLimits ?? FETCH_LIMITS),
    });
    current = consumer;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      setRunning(false);
      stoppedAt ??= Date.now();
      opts.logger.error({ err: payload.error, restart: payload.restart }, 'consumer crashed');
      // With `restart` kafkajs starts the member again itself; without it the member stays stopped.
      if (!payload.restart && !stopping && current === consumer) restartLater(consumer);
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      setRunning(true);
      stoppedAt = null;
      restarts.succeeded();
      opts.metrics.unapplied.keepOnly(new Set(payload.memberAssignment[opts.topic] ?? []));
    });
    consumer.on(consumer.events.STOP, () => {
      setRunning(false);
      if (!stopping) stoppedAt ??= Date.now();
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [opts.topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? 1,
      eachBatch,
    });
  }

  let pending: NodeJS.Timeout | null = null;
  function restartLater(stopped: Consumer): void {
    const delay = restarts.next();
    opts.logger.warn({ inMs: delay }, 'restarting the stopped consumer');
    pending = setTimeout(() => {
      pending = null;
      if (stopping) return;
      opts.metrics.consumerRestarts.inc();
      void stopped
        .disconnect()
        .catch(() => undefined)
        .then(start)
        .catch((error: unknown) => {
          opts.logger.error({ err: error }, 'could not restart the consumer');
          if (!stopping && current !== null) restartLater(current);
        });
    }, delay);
  }

  await producer.connect();
  await start();

  return {
    isRunning: () => running,
    stoppedForMs: () => (stoppedAt === null ? null : Date.now() - stoppedAt),
    stop: async () => {
      stopping = true;
      if (pending) clearTimeout(pending);
      await current?.disconnect();
      await producer.disconnect();
    },
  };
}

/** Waits between restarts: 1 s, doubling up to 30 s, back to 1 s once a member has joined its group. */
export function restartBackoff(firstMs = 1_000, maxMs = 30_000): { next(): number; succeeded(): void } {
  let attempt = 0;
  return {
    next: () => Math.min(maxMs, firstMs * 2 ** attempt++),
    succeeded: () => void (attempt = 0),
  };
}
