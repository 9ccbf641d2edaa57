import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { Logger } from '../../services/logger.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { chunkApplier, type EventSink } from './applyChunk.ts';
import { batchHandler } from './batchHandler.ts';
import { DEFAULT_CHUNK_SIZE, LIVE_PARTITIONS_AT_ONCE } from './consumerDefaults.ts';
import { memberConfig, type MemberOptions } from './memberConfig.ts';
import { RestartingMember } from './restartingMember.ts';

export {
  DEFAULT_CHUNK_SIZE,
  LIVE_PARTITIONS_AT_ONCE,
  DEFAULT_SESSION_TIMEOUT_MS,
  FETCH_LIMITS,
  REPLAY_CHUNK_SIZE,
  REPLAY_FETCH_LIMITS,
} from './consumerDefaults.ts';
export { restartBackoff } from './restartBackoff.ts';

export interface ConsumerOptions extends MemberOptions {
  kafka: Kafka;
  topic: string;
  dlqTopic: string;
  sink: EventSink;
  metrics: ProjectorMetrics;
  logger: Logger;
  clock: () => Date;
  /** Messages folded and written together; bigger chunks mean fewer writes per event. Default DEFAULT_CHUNK_SIZE. */
  chunkSize?: number;
  /** Default LIVE_PARTITIONS_AT_ONCE. */
  partitionsConsumedConcurrently?: number;
  /** Called after each chunk is committed, with the partition's remaining lag. */
  onProgress?: (progress: { partition: number; offset: string; lag: number }) => void;
}

export interface RunningConsumer {
  isRunning(): boolean;
  /** Milliseconds since the consumer stopped other than by stop() (null while it runs or rejoins). */
  stoppedForMs(): number | null;
  stop(): Promise<void>;
}

/**
 * A consumer-group member that validates every message, dead-letters the bad ones, folds the
 * rest through the sink and commits offsets only after the sink's writes are durable. A crash at
 * any point replays from the last commit; the sink is idempotent, so nothing is lost or counted
 * twice.
 */
export async function runConsumer(opts: ConsumerOptions): Promise<RunningConsumer> {
  const config = memberConfig(opts);
  const producer: Producer = opts.kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const eachBatch = batchHandler({
    chunkSize: opts.chunkSize ?? DEFAULT_CHUNK_SIZE,
    heartbeatIntervalMs: config.heartbeatInterval,
    applyChunk: chunkApplier({ ...opts, producer }),
    metrics: opts.metrics,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  const member = new RestartingMember({
    ...opts,
    partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently ?? LIVE_PARTITIONS_AT_ONCE,
    config,
    eachBatch,
  });
  await producer.connect();
  await member.start();
  return {
    isRunning: () => member.isRunning(),
    stoppedForMs: () => member.stoppedForMs(),
    stop: async () => {
      await member.stop();
      await producer.disconnect();
    },
  };
}
