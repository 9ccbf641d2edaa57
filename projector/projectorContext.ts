import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import type { Config } from '../services/config/index.ts';
import type { Logger } from '../services/logger.ts';
import { ensureReadModelIndexes, type IndexedCollections, type ReadListing } from '../services/readModel/indexPlan.ts';
import type { ProjectionConfig } from './evolve/index.ts';
import type { ProjectorMetrics } from './metrics/projectorMetrics.ts';
import type { ProjectionCollections } from './write/projectionCollections.ts';

/** What the live projector and a rebuild both need: where events come from and go to. */
export interface ProjectorContext {
  db: Db;
  kafka: Kafka;
  topic: string;
  dlqTopic: string;
  /** Base group id; the live group of generation N is `<groupId>.g<N>` (a rebuild prepares it). */
  groupId: string;
  projection: ProjectionConfig;
  clock: () => Date;
  metrics: ProjectorMetrics;
  logger: Logger;
  /** The planned indexes of the collections (of `listings`' read collections only, when given) in read-model `format`. */
  ensureIndexes: (
    db: Db,
    collections: ProjectionCollections & IndexedCollections,
    listings?: readonly ReadListing[],
    format?: number,
  ) => Promise<void>;
  chunkSize?: number;
  /**
   * The read-model format this projector writes (services/readModel/readModelFormat.ts); only a
   * test sets it, to play the code of an older or a newer format.
   */
  format?: number;
  /** The consumer group's timings (KAFKA_SESSION_TIMEOUT_MS and the two after it); runConsumer's defaults when absent. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  rebalanceTimeoutMs?: number;
}

/** The context the entry points build from the validated configuration. */
export function projectorContext(
  config: Readonly<Config>,
  deps: { db: Db; kafka: Kafka; metrics: ProjectorMetrics; logger: Logger },
): ProjectorContext {
  return {
    ...deps,
    topic: config.kafka.topic,
    dlqTopic: config.kafka.dlqTopic,
    groupId: config.kafka.groupId,
    projection: { zone: config.calendar.timeZone, bufferPeriodDays: config.calendar.bufferPeriodDays },
    clock: () => new Date(),
    ensureIndexes: ensureReadModelIndexes,
    ...config.kafka.membership,
  };
}
