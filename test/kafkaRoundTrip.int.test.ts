import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer, Producer } from 'kafkajs';
import { createKafka, ensureTopics, probeKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { testServers, uniqueName } from './support/isolation.ts';

describe('real Kafka broker', () => {
  const { kafkaBrokers } = testServers();
  const topic = uniqueName('roundtrip');
  const kafka = createKafka({ clientId: 'test-roundtrip', brokers: kafkaBrokers, logger: createLogger('test', 'silent') });
  let admin: Admin;
  let producer: Producer;
  let consumer: Consumer;

  beforeAll(async () => {
    admin = kafka.admin();
    producer = kafka.producer();
    consumer = kafka.consumer({ groupId: uniqueName('group') });
    await Promise.all([admin.connect(), producer.connect(), consumer.connect()]);
  });
  afterAll(async () => {
    await Promise.all([consumer.disconnect(), producer.disconnect()]);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('answers a metadata request', async () => {
    expect(await probeKafka(admin)).toBe(true);
  });

  it('creates a topic once, then finds it existing', async () => {
    expect(await ensureTopics(admin, [{ topic, numPartitions: 3 }])).toEqual([topic]);
    expect(await ensureTopics(admin, [{ topic, numPartitions: 3 }])).toEqual([]);
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(metadata.topics[0]?.partitions).toHaveLength(3);
  });

  it('consumes back, in order per key, what was produced', async () => {
    const sent = Array.from({ length: 30 }, (_, i) => ({ key: `aggregate-${i % 3}`, value: JSON.stringify({ n: i }) }));
    await producer.send({ topic, acks: -1, messages: sent });
    const received: { key: string; n: number; partition: number }[] = [];
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: ({ message, partition }) => {
          received.push({ key: message.key!.toString(), n: (JSON.parse(message.value!.toString()) as { n: number }).n, partition });
          if (received.length === sent.length) resolve();
          return Promise.resolve();
        },
      });
    });
    await done;
    expect(received.map((r) => r.n).sort((a, b) => a - b)).toEqual(sent.map((_, i) => i));
    for (const key of ['aggregate-0', 'aggregate-1', 'aggregate-2']) {
      const ofKey = received.filter((r) => r.key === key);
      // Same key, same partition, produced order kept: what the projector relies on.
      expect(new Set(ofKey.map((r) => r.partition)).size).toBe(1);
      expect(ofKey.map((r) => r.n)).toEqual([...ofKey.map((r) => r.n)].sort((a, b) => a - b));
    }
  });
});
