import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kafka } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaInstance, type KafkaInstance } from '../infra/localKafka.ts';
import { RUN } from '../infra/paths.ts';
import { loadConfig } from '../services/config/index.ts';
import { createKafka, ensureTopics, probeKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { freePorts } from './faults/support/freePort.ts';
import { spawnNode, type NodeProcess } from './faults/support/spawnNode.ts';
import { testServers, uniqueName } from './support/isolation.ts';
import { makeTestCertificates, type TestCertificates } from './support/testCertificates.ts';

// A private broker whose client listeners other than its PLAINTEXT one require SASL (PLAIN and
// SCRAM users), SASL over TLS, or TLS with a client certificate; the shared test broker keeps its
// plain listener. The clients are configured only through the service's variables (loadConfig),
// as a deployment configures them.

const USER = { name: 'alice', password: 'alice-secret' };
const runDir = join(RUN, `kafka-security-${process.pid}`);
const log = (line: string): void => void process.stderr.write(`[kafka security] ${line}\n`);
let broker: KafkaInstance;
let certificates: TestCertificates;
let ports: { saslPlaintext: number; saslSsl: number; ssl: number };

beforeAll(async () => {
  certificates = await makeTestCertificates(join(runDir, 'tls'));
  const [port, controllerPort, saslPlaintext, saslSsl, ssl] = await freePorts(5);
  ports = { saslPlaintext, saslSsl, ssl };
  broker = kafkaInstance({
    port,
    controllerPort,
    runDir: join(runDir, 'kafka'),
    heapMb: 384,
    secured: {
      users: [USER],
      saslPlaintextPort: saslPlaintext,
      saslSslPort: saslSsl,
      sslPort: ssl,
      tls: { keyAndCertificateFile: certificates.brokerKeyAndCertificateFile, clientCaFile: certificates.caFile },
    },
  });
  await broker.start(log);
}, 180_000);

afterAll(async () => {
  await broker?.stop(10_000);
  rmSync(runDir, { recursive: true, force: true });
}, 60_000);

/** A client built as the projector builds it: from the environment, through loadConfig. */
function kafkaFromEnv(env: Record<string, string>): Kafka {
  const config = loadConfig(env);
  return createKafka({
    clientId: uniqueName('security-test'),
    brokers: config.kafka.brokers,
    security: config.kafka.security,
    logger: createLogger('test', 'silent'),
  });
}

const sasl = (mechanism: string, password = USER.password): Record<string, string> => ({
  KAFKA_SASL_MECHANISM: mechanism,
  KAFKA_SASL_USERNAME: USER.name,
  KAFKA_SASL_PASSWORD: password,
});

/** The readiness probe, a topic created, three messages produced and consumed back in a group. */
async function roundTrip(kafka: Kafka): Promise<string[]> {
  const topic = uniqueName('security');
  const admin = kafka.admin();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: uniqueName('security-group') });
  try {
    await admin.connect();
    expect(await probeKafka(admin)).toBe(true);
    await ensureTopics(admin, [{ topic, numPartitions: 1 }]);
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: ['one', 'two', 'three'].map((value) => ({ value })) });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const received: string[] = [];
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: ({ message }) => {
          received.push(message.value!.toString());
          if (received.length === 3) resolve();
          return Promise.resolve();
        },
      });
    });
    return received;
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

/** How a connect ends: the error's message and how long it took. */
async function failedConnect(kafka: Kafka): Promise<{ message: string; ms: number }> {
  const admin = kafka.admin();
  const started = performance.now();
  try {
    await admin.connect();
    await admin.disconnect();
    return { message: 'connected', ms: performance.now() - started };
  } catch (error) {
    return { message: (error as Error).message, ms: performance.now() - started };
  }
}

describe('Kafka over SASL and TLS, configured by the KAFKA_SSL* and KAFKA_SASL* variables', () => {
  for (const mechanism of ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512']) {
    it(`logs in with SASL ${mechanism}: probe, topic, produce and consume`, async () => {
      const kafka = kafkaFromEnv({ KAFKA_BROKERS: `127.0.0.1:${ports.saslPlaintext}`, ...sasl(mechanism) });
      expect(await roundTrip(kafka)).toEqual(['one', 'two', 'three']);
    });
  }

  it('logs in with SCRAM over TLS, the broker checked against KAFKA_SSL_CA_FILE', async () => {
    const kafka = kafkaFromEnv({
      KAFKA_BROKERS: `127.0.0.1:${ports.saslSsl}`,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: certificates.caFile,
      ...sasl('scram-sha-512'),
    });
    expect(await roundTrip(kafka)).toEqual(['one', 'two', 'three']);
  });

  it('presents a client certificate where the broker requires one (mutual TLS)', async () => {
    const kafka = kafkaFromEnv({
      KAFKA_BROKERS: `127.0.0.1:${ports.ssl}`,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: certificates.caFile,
      KAFKA_SSL_CERT_FILE: certificates.clientCertFile,
      KAFKA_SSL_KEY_FILE: certificates.clientKeyFile,
    });
    expect(await roundTrip(kafka)).toEqual(['one', 'two', 'three']);
  });

  for (const mechanism of ['PLAIN', 'SCRAM-SHA-256']) {
    it(`says a wrong ${mechanism} password is a refused login, at once, not after retries`, async () => {
      const kafka = kafkaFromEnv({ KAFKA_BROKERS: `127.0.0.1:${ports.saslPlaintext}`, ...sasl(mechanism, 'wrong-password') });
      const { message, ms } = await failedConnect(kafka);
      expect(message).toMatch(
        new RegExp(`^Kafka authentication failed \\(SASL ${mechanism}\\) for user "alice" at 127\\.0\\.0\\.1:\\d+: `),
      );
      expect(message).toContain('KAFKA_SASL_PASSWORD');
      expect(message).not.toContain('wrong-password');
      expect(ms).toBeLessThan(15_000);
    });
  }

  it('says what it tried when the listener wants SASL and the client has none', async () => {
    const { message, ms } = await failedConnect(kafkaFromEnv({ KAFKA_BROKERS: `127.0.0.1:${ports.saslPlaintext}` }));
    expect(message).toMatch(/^Kafka at 127\.0\.0\.1:\d+ did not answer \(plaintext, no SASL\): .*KAFKA_SASL_MECHANISM/);
    expect(ms).toBeLessThan(30_000);
  });

  it("says the broker's certificate is not trusted when KAFKA_SSL_CA_FILE is missing", async () => {
    const kafka = kafkaFromEnv({ KAFKA_BROKERS: `127.0.0.1:${ports.saslSsl}`, KAFKA_SSL: 'true', ...sasl('scram-sha-512') });
    const { message, ms } = await failedConnect(kafka);
    expect(message).toMatch(/the broker's TLS certificate is not trusted \(\w+: .*\); set KAFKA_SSL_CA_FILE/);
    expect(ms).toBeLessThan(30_000);
  });
});

describe('the projector on a SASL listener', () => {
  const servers = testServers();
  const db = uniqueName('kafka_security');
  let projector: NodeProcess | undefined;
  const projectorEnv = async (password: string): Promise<{ env: NodeJS.ProcessEnv; opsPort: number }> => {
    const [opsPort] = await freePorts(1);
    const topic = uniqueName('security_events');
    return {
      opsPort,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        OPS_HOST: '127.0.0.1',
        MONGO_URL: servers.mongoUrl,
        MONGO_DB: db,
        KAFKA_BROKERS: `127.0.0.1:${ports.saslPlaintext}`,
        KAFKA_TOPIC: topic,
        KAFKA_GROUP_ID: topic,
        PROJECTOR_OPS_PORT: String(opsPort),
        ...sasl('SCRAM-SHA-256', password),
      },
    };
  };
  const entry = fileURLToPath(new URL('../projector/main.ts', import.meta.url));

  afterAll(async () => {
    await projector?.stop();
    const client = await MongoClient.connect(servers.mongoUrl);
    await client
      .db(db)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  }, 60_000);

  it('joins its group and reports ready', async () => {
    const { env, opsPort } = await projectorEnv(USER.password);
    // Made beforehand, as in production (a projector creating them itself can meet a partition
    // whose leader is not ready yet when it reads its offsets right after).
    const admin = kafkaFromEnv({ KAFKA_BROKERS: env.KAFKA_BROKERS!, ...sasl('SCRAM-SHA-256') }).admin();
    await admin.connect();
    await ensureTopics(
      admin,
      [env.KAFKA_TOPIC!, `${env.KAFKA_TOPIC!}.dlq`].map((topic) => ({ topic, numPartitions: 2 })),
    );
    await admin.disconnect();
    projector = spawnNode(entry, [], env);
    const exited = projector.exited.then((how) => {
      throw new Error(`projector exited (${String(how)}):\n${projector?.output()}`);
    });
    const ready = (async () => {
      for (;;) {
        const status = await fetch(`http://127.0.0.1:${opsPort}/health/ready`, { signal: AbortSignal.timeout(5000) }).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    await Promise.race([ready, exited]);
    await projector.stop();
  }, 120_000);

  it('with a wrong password stops at once and says why', async () => {
    const { env } = await projectorEnv('wrong-password');
    const started = performance.now();
    const refused = spawnNode(entry, [], env);
    const how = await refused.exited;
    expect(how).toBe(1);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(refused.output()).toMatch(
      /projector: start-up failed: Kafka authentication failed \(SASL SCRAM-SHA-256\) for user "alice" at 127\.0\.0\.1:\d+: /,
    );
    expect(refused.output()).not.toContain('wrong-password');
  }, 60_000);
});
