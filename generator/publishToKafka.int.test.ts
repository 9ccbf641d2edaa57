import { afterAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../services/events/index.ts';
import { createKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { testServers, uniqueName } from '../test/support/isolation.ts';
import { createHistory } from './createHistory.ts';
import { publishHistory } from './publishToKafka.ts';

describe('publishHistory on a real broker', () => {
  const { kafkaBrokers } = testServers();
  const topic = uniqueName('history');
  const logger = createLogger('test', 'silent');
  const kafka = createKafka({ clientId: 'test-history', brokers: kafkaBrokers, logger });
  const history = (): Generator<DomainEvent> => createHistory({ seed: 42, events: 2000, now: new Date('2026-11-23T00:00:00Z') });

  afterAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('creates the topic, publishes every event keyed by aggregate, and keeps each aggregate in order', async () => {
    const expected = [...history()];
    const progress: number[] = [];
    const result = await publishHistory({
      brokers: kafkaBrokers,
      topic,
      events: history(),
      partitions: 3,
      batchSize: 500,
      logger,
      onProgress: (n) => progress.push(n),
    });
    expect(result).toEqual({ published: expected.length, createdTopic: true });
    expect(progress.at(-1)).toBe(expected.length);

    const admin = kafka.admin();
    await admin.connect();
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    await admin.disconnect();
    expect(metadata.topics[0]?.partitions).toHaveLength(3);

    const consumer = kafka.consumer({ groupId: uniqueName('group') });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const received: { key: string; partition: number; event: DomainEvent }[] = [];
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: ({ message, partition }) => {
          received.push({
            key: message.key?.toString() ?? '',
            partition,
            event: JSON.parse(message.value?.toString() ?? 'null') as DomainEvent,
          });
          if (received.length === expected.length) resolve();
          return Promise.resolve();
        },
      });
    });
    await consumer.disconnect();
    expect(new Set(received.map((r) => r.event.eventId))).toEqual(new Set(expected.map((e) => e.eventId)));
    const partitionOf = new Map<string, number>();
    const lastVersion = new Map<string, number>();
    for (const { key, partition, event } of received) {
      expect(key).toBe(event.aggregateId);
      expect(partitionOf.get(key) ?? partition).toBe(partition);
      partitionOf.set(key, partition);
      expect(event.aggregateVersion).toBe((lastVersion.get(key) ?? 0) + 1);
      lastVersion.set(key, event.aggregateVersion);
    }
  });

  it('publishes to an existing topic without creating it again', async () => {
    const firstTen = [...history()].slice(0, 10);
    const result = await publishHistory({ brokers: kafkaBrokers, topic, events: firstTen, logger });
    expect(result).toEqual({ published: 10, createdTopic: false });
  });
});
