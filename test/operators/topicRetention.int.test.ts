import { fileURLToPath } from 'node:url';
import kafkajs, { type Admin, type Kafka } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, ensureTopics, readTopicRetention } from '../../services/kafka/index.ts';
import { createLogger } from '../../services/logger.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { waitFor } from '../support/waitFor.ts';

// A rebuild and the bootstrap replay the events topic from offset 0. On the real broker: the
// topics ensureTopics creates keep everything by their own settings (the local broker keeps
// everything anyway, so the test reads the topic-level override); a topic with Kafka's default
// 7-day retention is flagged, by the reading and by the running projector's gauge; a topic whose
// start was deleted is refused by `npm run rebuild` and by a projector's first projection.

const servers = testServers();
const db = uniqueName('retention');
const topics: string[] = [];
const children: NodeProcess[] = [];
let kafka: Kafka;
let admin: Admin;

const SEVEN_DAYS_MS = String(7 * 24 * 3600 * 1000);

async function createTopic(retentionMs?: string): Promise<string> {
  const topic = uniqueName('retention');
  topics.push(topic, `${topic}.dlq`);
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic, numPartitions: 2, replicationFactor: -1, configEntries: retentionMs ? [{ name: 'retention.ms', value: retentionMs }] : [] },
    ],
  });
  return topic;
}

async function produce(topic: string, n: number): Promise<void> {
  const producer = kafka.producer();
  await producer.connect();
  const messages = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: '{}', partition: i % 2 }));
  await producer.send({ topic, acks: -1, messages });
  await producer.disconnect();
}

function start(entry: string, topic: string, env: Record<string, string> = {}): NodeProcess {
  const child = spawnNode(fileURLToPath(new URL(entry, import.meta.url)), [], {
    ...process.env,
    LOG_LEVEL: 'warn',
    OPS_HOST: '127.0.0.1',
    MONGO_URL: servers.mongoUrl,
    MONGO_DB: db,
    KAFKA_BROKERS: servers.kafkaBrokers.join(','),
    KAFKA_TOPIC: topic,
    KAFKA_GROUP_ID: topic,
    KAFKA_TOPIC_PARTITIONS: '2',
    ...env,
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  kafka = createKafka({ clientId: 'retention-test', brokers: servers.kafkaBrokers, logger: createLogger('test', 'silent') });
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
  await admin.deleteTopics({ topics }).catch(() => undefined);
  await admin.disconnect();
  const client = await MongoClient.connect(servers.mongoUrl);
  await client
    .db(db)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
}, 60_000);

describe('the retention of the events topic', () => {
  it('ensureTopics creates topics that keep everything by their own settings, whatever the cluster default', async () => {
    const topic = uniqueName('ensured');
    topics.push(topic);
    expect(await ensureTopics(admin, [{ topic, numPartitions: 2 }])).toEqual([topic]);
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [
        { type: kafkajs.ConfigResourceTypes.TOPIC, name: topic, configNames: ['retention.ms', 'retention.bytes', 'cleanup.policy'] },
      ],
    });
    const entries = described.resources[0]!.configEntries.map((e) => [e.configName, e.configValue, e.configSource]);
    const override = kafkajs.ConfigSource.TOPIC_CONFIG;
    expect(entries).toEqual(
      expect.arrayContaining([
        ['retention.ms', '-1', override],
        ['retention.bytes', '-1', override],
        ['cleanup.policy', 'delete', override],
      ]),
    );
    expect(await readTopicRetention(admin, topic)).toEqual({ topic, settingProblems: [], droppedStarts: [] });
  });

  it("flags a topic with Kafka's default 7-day retention, in the reading and in the running projector's gauges", async () => {
    const topic = await createTopic(SEVEN_DAYS_MS);
    expect((await readTopicRetention(admin, topic)).settingProblems).toEqual([
      `retention.ms is ${SEVEN_DAYS_MS}, not -1: the broker deletes events past it`,
    ]);
    const [ops] = await freePorts(1);
    const projector = start('../../projector/main.ts', topic, { PROJECTOR_OPS_PORT: String(ops), PROJECTOR_BOOTSTRAP_MIN_EVENTS: '0' });
    const page = await Promise.race([
      projector.exited.then((how) => Promise.reject(new Error(`projector exited (${String(how)}):\n${projector.output()}`))),
      waitFor(async () => {
        const text = await (await fetch(`http://127.0.0.1:${ops}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
        if (!/^projector_consumer_running\{[^}]*\} 1$/m.test(text)) throw new Error('consumer not running yet');
        return text;
      }, 90_000),
    ]);
    expect(page).toMatch(/^projector_events_topic_keeps_everything\{service="projector"\} 0$/m);
    expect(page).toMatch(/^projector_events_topic_complete\{service="projector"\} 1$/m);
    expect(projector.output()).toContain('the events topic does not keep every event');
    await projector.stop();
  }, 120_000);

  it('refuses a rebuild and a first projection from a topic whose start was deleted, saying where it starts now', async () => {
    const topic = await createTopic();
    await produce(topic, 10);
    // The admin client finds each partition's leader in its metadata, which has not seen this topic yet.
    await admin.fetchTopicMetadata({ topics: [topic] });
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 1, offset: '3' }] });
    expect((await readTopicRetention(admin, topic)).droppedStarts).toEqual([{ partition: 1, low: 3 }]);

    const rebuild = start('../../projector/rebuild.ts', topic);
    expect(await rebuild.exited).toBe(1);
    expect(rebuild.output()).toContain(
      `rebuild: start-up failed: rebuild refused: the events topic ${topic} no longer holds its first events (partition 1 starts at offset 3)`,
    );
    expect(rebuild.output()).not.toMatch(/^\s+at /m);

    const [ops] = await freePorts(1);
    const projector = start('../../projector/main.ts', topic, { PROJECTOR_OPS_PORT: String(ops), PROJECTOR_BOOTSTRAP_MIN_EVENTS: '5' });
    expect(await projector.exited).toBe(1);
    expect(projector.output()).toContain(
      `projector: start-up failed: projecting the events topic into an empty read model refused: the events topic ${topic} no longer holds its first events (partition 1 starts at offset 3)`,
    );
  }, 120_000);
});
