import type { Kafka } from 'kafkajs';
import { connectMongo, type MongoConnection } from '../../services/mongo/index.ts';
import { createKafka, ensureTopics } from '../../services/kafka/index.ts';
import { createLogger } from '../../services/logger.ts';
import { createRegistry } from '../../services/metrics/createRegistry.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { createProjectorMetrics, type ProjectorMetrics } from '../../projector/metrics/projectorMetrics.ts';
import type { ProjectionConfig } from '../../projector/evolve/index.ts';
import type { ProjectorContext } from '../../projector/projectorContext.ts';
import { ensureReadModelIndexes } from '../../services/readModel/indexPlan.ts';
import { testServers, uniqueName } from './isolation.ts';

export interface Harness {
  kafka: Kafka;
  mongo: MongoConnection;
  topic: string;
  dlqTopic: string;
  groupId: string;
  metrics: ProjectorMetrics;
  logger: ReturnType<typeof createLogger>;
  config: ProjectionConfig;
  produce(events: readonly DomainEvent[] | readonly { key: string; value: Buffer | string }[]): Promise<void>;
  /** The projector's context on these servers, its clock pinned at `now`. */
  context(now: Date, more?: Partial<ProjectorContext>): ProjectorContext;
  close(): Promise<void>;
}

/** A fresh database and topic pair on the real servers, for one test file. */
export async function createHarness(opts: { partitions: number; config: ProjectionConfig }): Promise<Harness> {
  const { kafkaBrokers, mongoUrl } = testServers();
  const logger = createLogger('test', 'silent');
  const kafka = createKafka({ clientId: 'test-projector', brokers: kafkaBrokers, logger });
  const topic = uniqueName('events');
  const dlqTopic = `${topic}.dlq`;
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, [
    { topic, numPartitions: opts.partitions },
    { topic: dlqTopic, numPartitions: 1 },
  ]);
  await admin.disconnect();
  const mongo = await connectMongo(mongoUrl, uniqueName('test_projector'));
  // Idempotent, as the projector's own producer: a send retried after a lost response would
  // otherwise append its messages twice, and tests that count the topic's messages (bootstrap's
  // threshold) would see more than they produced.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const groupId = uniqueName('group');
  const metrics = createProjectorMetrics(createRegistry('test', false));
  return {
    kafka,
    mongo,
    topic,
    dlqTopic,
    groupId,
    metrics,
    logger,
    config: opts.config,
    async produce(items) {
      const messages = items.map((item) =>
        'eventId' in item ? { key: item.aggregateId, value: JSON.stringify(item) } : { key: item.key, value: item.value },
      );
      for (let i = 0; i < messages.length; i += 1000) await producer.send({ topic, acks: -1, messages: messages.slice(i, i + 1000) });
    },
    context(now, more = {}) {
      return {
        db: mongo.db,
        kafka,
        topic,
        dlqTopic,
        groupId,
        projection: opts.config,
        clock: () => now,
        metrics,
        logger,
        ensureIndexes: ensureReadModelIndexes,
        ...more,
      };
    },
    async close() {
      await producer.disconnect();
      await mongo.db.dropDatabase();
      await mongo.close();
    },
  };
}
