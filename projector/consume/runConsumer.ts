import { Partitioners, type Consumer, type Kafka, type KafkaMessage, type Producer } from 'kafkajs';
import { EVENT_TYPES, parseEventBytes, type DomainEvent } from '../../services/events/index.ts';
import type { Logger } from '../../services/logger.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { deadLetter, type DeadLetter } from './deadLetter.ts';

export type ApplyOutcome = 'applied' | 'duplicate' | 'gap';

/** What the consumer hands valid events to: folds them and returns once the writes are durable. */
export interface EventSink {
  apply(events: DomainEvent[]): Promise<ApplyOutcome[]>;
}

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
  partitionsConsumedConcurrently?: number;
  /** How long the broker waits for a silent member before reassigning its partitions (Kafka's minimum is 6 s). */
  sessionTimeoutMs?: number;
  /** Called after each chunk is committed, with the partition's remaining lag. */
  onProgress?: (progress: { partition: number; offset: string; lag: number }) => void;
}

export interface RunningConsumer {
  isRunning(): boolean;
  stop(): Promise<void>;
}

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
 * A consumer-group member that validates every message, dead-letters the bad ones, folds the
 * rest through the sink and commits offsets only after the sink's writes are durable. A crash at
 * any point replays from the last commit; the sink is idempotent, so nothing is lost or counted
 * twice.
 */
export async function runConsumer(opts: ConsumerOptions): Promise<RunningConsumer> {
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const sessionTimeout = opts.sessionTimeoutMs ?? 30_000;
  const heartbeatInterval = Math.min(3000, sessionTimeout / 3);
  const consumer: Consumer = opts.kafka.consumer({ groupId: opts.groupId, sessionTimeout, heartbeatInterval, ...FETCH_LIMITS });
  const producer: Producer = opts.kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
  let running = false;
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    running = false;
    opts.metrics.consumerRunning.set(0);
    opts.logger.error({ err: payload.error, restart: payload.restart }, 'consumer crashed');
  });
  consumer.on(consumer.events.GROUP_JOIN, () => {
    running = true;
    opts.metrics.consumerRunning.set(1);
  });
  consumer.on(consumer.events.STOP, () => {
    running = false;
    opts.metrics.consumerRunning.set(0);
  });

  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topics: [opts.topic], fromBeginning: true });

  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? 1,
    eachBatch: async (payload) => {
      // kafkajs hands these as plain closures; calling them through the payload keeps `this` sound.
      const { batch } = payload;
      const { partition, highWatermark } = batch;
      // A chunk's commit travels while the next chunk is folded, instead of holding it for a
      // round trip (a replay that only validated spent 8.2 s committing per chunk, 6.3 s not
      // committing). Commits stay in order, each is sent only after its chunk's writes are
      // durable, and the batch returns only once the last one landed.
      let committed: Promise<void> = Promise.resolve();
      try {
        for (let start = 0; start < batch.messages.length; start += chunkSize) {
          if (!payload.isRunning() || payload.isStale()) return;
          const chunk = batch.messages.slice(start, start + chunkSize);
          const last = chunk[chunk.length - 1]!;
          const began = performance.now();
          opts.metrics.oldestUnappliedSeconds.set(Math.max(0, (opts.clock().getTime() - Number(chunk[0]!.timestamp)) / 1000));
          // kafkajs heartbeats only when asked: a chunk outlasting the session (a slow database)
          // would get the member evicted, its commit refused and the chunk folded again elsewhere.
          // A failed heartbeat (a rebalance) is left to isStale() and the commit to report.
          const keepAlive = setInterval(() => void payload.heartbeat().catch(() => undefined), heartbeatInterval);
          try {
            await processChunk(chunk, partition);
          } finally {
            clearInterval(keepAlive);
          }
          payload.resolveOffset(last.offset);
          await committed;
          const lag = Math.max(0, Number(BigInt(highWatermark) - BigInt(last.offset) - 1n));
          committed = consumer
            .commitOffsets([{ topic: batch.topic, partition, offset: (BigInt(last.offset) + 1n).toString() }])
            .then(() => opts.onProgress?.({ partition, offset: last.offset, lag }));
          // Observed by the next await; this only keeps a failure from counting as unhandled.
          committed.catch(() => undefined);
          opts.metrics.consumerLagMessages.set({ partition: String(partition) }, lag);
          if (lag === 0) opts.metrics.oldestUnappliedSeconds.set(0);
          opts.metrics.batchDuration.observe((performance.now() - began) / 1000);
          opts.metrics.batchSize.observe(chunk.length);
          await payload.heartbeat();
        }
      } finally {
        await committed;
      }
    },
  });

  async function processChunk(chunk: KafkaMessage[], partition: number): Promise<void> {
    const events: DomainEvent[] = [];
    const dead: DeadLetter[] = [];
    const now = opts.clock();
    for (const message of chunk) {
      const parsed = parseEventBytes(message.value);
      if (parsed.ok) {
        events.push(parsed.event);
      } else {
        dead.push(deadLetter(message, { topic: opts.topic, partition }, parsed.reason, now));
        opts.metrics.eventsDeadLettered.inc({ type: typeLabel(message.value) });
        opts.logger.warn({ partition, offset: message.offset, reason: parsed.reason }, 'dead-lettered an invalid message');
      }
    }
    // Dead letters first: once the offset is committed the original is never read again.
    if (dead.length > 0) await producer.send({ topic: opts.dlqTopic, acks: -1, messages: dead });
    if (events.length === 0) return;
    const outcomes = await opts.sink.apply(events);
    // Counted per chunk and type, then added once per label: a labelled inc per event cost as
    // much as folding some events.
    const counts = { applied: new Map<string, number>(), duplicate: new Map<string, number>(), gap: new Map<string, number>() };
    const count = (tally: Map<string, number>, type: string): void => void tally.set(type, (tally.get(type) ?? 0) + 1);
    outcomes.forEach((outcome, i) => {
      const event = events[i]!;
      if (outcome === 'duplicate') {
        count(counts.duplicate, event.type);
        return;
      }
      count(counts.applied, event.type);
      if (outcome === 'gap') {
        count(counts.gap, event.type);
        opts.logger.warn({ aggregateId: event.aggregateId, aggregateVersion: event.aggregateVersion, type: event.type }, 'aggregate version gap; applied anyway');
      }
    });
    for (const [type, n] of counts.applied) opts.metrics.eventsApplied.inc({ type }, n);
    for (const [type, n] of counts.duplicate) opts.metrics.eventsDuplicate.inc({ type }, n);
    for (const [type, n] of counts.gap) opts.metrics.versionGaps.inc({ type }, n);
    const lastEvent = events[events.length - 1]!;
    opts.metrics.lagSeconds.set(Math.max(0, (opts.clock().getTime() - Date.parse(lastEvent.occurredAt)) / 1000));
  }

  return {
    isRunning: () => running,
    stop: async () => {
      await consumer.disconnect();
      await producer.disconnect();
    },
  };
}

const knownTypes: ReadonlySet<string> = new Set(EVENT_TYPES);

/** A bounded metric label for a rejected message: its `type` when that is a known one. */
function typeLabel(value: Buffer | null): string {
  if (!value) return 'unparsable';
  try {
    const type = (JSON.parse(value.toString('utf8')) as { type?: unknown }).type;
    return typeof type === 'string' && knownTypes.has(type) ? type : 'unknown';
  } catch {
    return 'unparsable';
  }
}
