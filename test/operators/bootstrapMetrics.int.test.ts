import { fileURLToPath } from 'node:url';
import type { Admin } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { createKafka, ensureTopics } from '../../services/kafka/index.ts';
import { createLogger } from '../../services/logger.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { testServers, uniqueName } from '../support/isolation.ts';

// A bootstrap of an empty read model may take many minutes. The real projector opens its
// operators' port before it, so Prometheus sees the instance up (no FederationNoProjector), not
// ready and bootstrapping, which the consumer, clock and readiness alerts leave alone; once the
// bootstrap ends, the same port reports it ready and consuming.

const servers = testServers();
const topic = uniqueName('bootstrap_metrics');
const db = uniqueName('bootstrap_metrics');
const history = [...createHistory({ seed: 31, events: 20_000, now: new Date() })];
let admin: Admin;
let projector: NodeProcess | undefined;

/** The value of an unlabelled projector metric on a page. */
const sample = (page: string, metric: string): string | undefined =>
  new RegExp(`^${metric}\\{service="projector"\\} (\\S+)$`, 'm').exec(page)?.[1];

beforeAll(async () => {
  const kafka = createKafka({ clientId: 'bootstrap-metrics-test', brokers: servers.kafkaBrokers, logger: createLogger('test', 'silent') });
  admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, [{ topic, numPartitions: 2 }]);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const messages = history.map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) }));
  for (let i = 0; i < messages.length; i += 2000) await producer.send({ topic, acks: -1, messages: messages.slice(i, i + 2000) });
  await producer.disconnect();
}, 120_000);

afterAll(async () => {
  await projector?.stop();
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
  await admin.disconnect();
  const client = await MongoClient.connect(servers.mongoUrl);
  await client
    .db(db)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
}, 60_000);

describe('a projector bootstrapping an empty read model', () => {
  it('answers on its operators port from the start: up, not ready, bootstrapping; then ready and consuming', async () => {
    const [ops] = await freePorts(1);
    projector = spawnNode(fileURLToPath(new URL('../../projector/main.ts', import.meta.url)), [], {
      ...process.env,
      LOG_LEVEL: 'warn',
      OPS_HOST: '127.0.0.1',
      MONGO_URL: servers.mongoUrl,
      MONGO_DB: db,
      KAFKA_BROKERS: servers.kafkaBrokers.join(','),
      KAFKA_TOPIC: topic,
      KAFKA_GROUP_ID: topic,
      PROJECTOR_OPS_PORT: String(ops),
      PROJECTOR_BOOTSTRAP_MIN_EVENTS: '1000',
    });
    const exited = projector.exited.then((how) => {
      throw new Error(`projector exited (${String(how)}):\n${projector?.output()}`);
    });
    // Every page from the first the port serves until the projector is ready.
    const pages: string[] = [];
    const follow = (async () => {
      for (;;) {
        const page = await fetch(`http://127.0.0.1:${ops}/metrics`, { signal: AbortSignal.timeout(5000) }).then(
          (res) => res.text(),
          () => undefined,
        );
        if (page !== undefined) pages.push(page);
        if (page !== undefined && sample(page, 'health_ready') === '1') return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await Promise.race([follow, exited]);

    // The port answered before the live consumer ran, and while the bootstrap ran (whose replay
    // consumer sets projector_consumer_running too, so readiness is what tells the two apart).
    expect(sample(pages[0]!, 'health_ready')).toBe('0');
    const during = pages.filter((page) => sample(page, 'projector_bootstrap_running') === '1');
    expect(during.length).toBeGreaterThan(0);
    for (const page of during) expect(sample(page, 'health_ready')).toBe('0');
    const last = pages.at(-1)!;
    expect(sample(last, 'projector_bootstrap_running')).toBe('0');
    expect(sample(last, 'projector_consumer_running')).toBe('1');
    expect(sample(last, 'projector_rebuild_progress_ratio')).toBe('1');
  }, 180_000);
});
