import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { Admin, Kafka, Producer } from 'kafkajs';
import { createHistory } from '../../../generator/createHistory.ts';
import { liveGroupId } from '../../../projector/consume/liveGroupId.ts';
import { parsePrometheusText } from '../../../projector/status/readProjectorStatus.ts';
import { createKafka, ensureTopics } from '../../../services/kafka/index.ts';
import { createLogger } from '../../../services/logger.ts';
import { connectMongo, type MongoConnection } from '../../../services/mongo/index.ts';
import type { DomainEvent } from '../../../services/events/index.ts';
import { uniqueName } from '../../support/isolation.ts';
import { readModelSnapshot, referenceSnapshot } from '../../support/readModelSnapshot.ts';
import { recountDeltaCounts } from '../../support/recountDeltaCounts.ts';
import { waitFor } from '../../support/waitFor.ts';
import { faultProjectorOptions } from './faultProjectorOptions.ts';
import { freePorts } from './freePort.ts';
import { committedTotal, topicEnd } from './groupState.ts';
import { msUntilStatus, probe, type Probe } from './httpProbe.ts';
import { readModelDrift, type Drift } from './readModelDrift.ts';
import { spawnNode, type NodeProcess } from './spawnNode.ts';

// One outage, end to end on real processes: a projector process and an API process over the
// given servers; events flow; a fault begins mid-stream and ends; both must come back by
// themselves and the read model must end equal to the clean rebuild of the events.

const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const projectorEntry = fileURLToPath(new URL('./faultProjectorProcess.ts', import.meta.url));
const apiEntry = fileURLToPath(new URL('../../../api/main.ts', import.meta.url));
const API_QUERY_TIMEOUT_MS = 2000;

export interface Fault {
  name: string;
  begin(): Promise<void> | void;
  end(): Promise<void> | void;
  /** How long the fault lasts between begin and end. */
  holdMs: number;
  /** Whether the database is away (the API must answer 503) or only the broker. */
  databaseAway: boolean;
}

export interface OutageReport {
  fault: string;
  committedAtFault: number;
  delivered: number;
  /** From the fault's start to the projector's / API's readiness answering 503. */
  projectorNotReadyMs: number;
  apiNotReadyMs: number | null;
  /** What the API answered for a listing during the fault. */
  apiDuring: Probe;
  /** How long ending the fault took (a restart: until the server answered). */
  restartMs: number;
  /** From the fault's end (server answering again) to ready again, and to every offset committed with equal documents. */
  projectorReadyMs: number;
  apiReadyMs: number;
  caughtUpMs: number;
  drift: Drift;
}

export interface OutageRig {
  kafka: Kafka;
  run(fault: Fault): Promise<OutageReport>;
  close(): Promise<void>;
}

async function produce(producer: Producer, topic: string, events: readonly DomainEvent[]): Promise<void> {
  const messages = events.map((e) => ({ key: e.aggregateId, value: JSON.stringify(e) }));
  for (let i = 0; i < messages.length; i += 500) await producer.send({ topic, acks: -1, messages: messages.slice(i, i + 500) });
}

export function outageRig(servers: { kafkaBrokers: string[]; mongoUrl: string }): OutageRig {
  const logger = createLogger('fault-test', 'silent');
  const kafka = createKafka({ clientId: 'fault-test', brokers: servers.kafkaBrokers, logger });
  const running: NodeProcess[] = [];
  const opened: { admin: Admin; producer: Producer; mongo: MongoConnection }[] = [];

  async function run(fault: Fault): Promise<OutageReport> {
    const history = [...createHistory({ seed: 57, events: 2400, now: NOW })];
    const delivered = history.flatMap((e, i) => (i % 7 === 0 ? [e, e] : [e]));
    const expected = referenceSnapshot(history, config, NOW);
    const topic = uniqueName('fault_events');
    const db = uniqueName('fault_read');
    const groupId = uniqueName('fault_group');
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(admin, [
      { topic, numPartitions: 4 },
      { topic: `${topic}.dlq`, numPartitions: 1 },
    ]);
    const producer = kafka.producer();
    await producer.connect();
    const mongo = await connectMongo(servers.mongoUrl, db);
    opened.push({ admin, producer, mongo });

    // Three parts: before the fault, during it (when the broker is up), after it.
    const cut1 = Math.floor(delivered.length * 0.5);
    const cut2 = Math.floor(delivered.length * 0.75);
    await produce(producer, topic, delivered.slice(0, cut1));

    const [projectorOps, apiPort, apiOps] = await freePorts(3);
    const options = faultProjectorOptions(
      servers,
      { mongo, topic, dlqTopic: `${topic}.dlq`, groupId },
      { now: NOW, config, chunkSize: 10, opsPort: projectorOps },
    );
    const projector = spawnNode(projectorEntry, [JSON.stringify(options)]);
    running.push(projector);
    await projector.afterLines('running', 1);
    const api = spawnNode(apiEntry, [], {
      ...process.env,
      LOG_LEVEL: 'warn',
      MONGO_URL: servers.mongoUrl,
      MONGO_DB: db,
      KAFKA_BROKERS: servers.kafkaBrokers.join(','),
      API_PORT: String(apiPort),
      API_OPS_PORT: String(apiOps),
      API_PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      API_QUERY_TIMEOUT_MS: String(API_QUERY_TIMEOUT_MS),
      CALENDAR_TIME_ZONE: config.zone,
      // An inherited REDIS_URL shares 127.0.0.1's budget with every other test's API: the rig probes availability, not limits.
      RATE_LIMIT_MAX: '1000000',
    });
    running.push(api);
    const projectorReady = `http://127.0.0.1:${projectorOps}/health/ready`;
    const apiReady = `http://127.0.0.1:${apiOps}/health/ready`;
    const listing = `http://127.0.0.1:${apiPort}/api/v1/competitions`;
    await msUntilStatus(projectorReady, 200, 60_000);
    await msUntilStatus(apiReady, 200, 60_000);

    // Mid-stream: the projector is folding the backlog (chunks of 10) when the fault begins.
    await projector.afterLines('wrote ', projector.count('wrote ') + 10);
    const group = liveGroupId(groupId, 1);
    const committedAtFault = await committedTotal(admin, group, topic);
    expect(committedAtFault).toBeLessThan(cut1);
    await fault.begin();
    const faultBegan = performance.now();
    const untilFaultEnd = async (): Promise<void> => {
      const left = fault.holdMs - (performance.now() - faultBegan);
      if (left > 0) await sleep(left);
    };
    const projectorNotReadyMs = await msUntilStatus(projectorReady, 503, fault.holdMs);
    let apiNotReadyMs: number | null = null;
    let apiDuring: Probe;
    if (fault.databaseAway) {
      apiNotReadyMs = await msUntilStatus(apiReady, 503, fault.holdMs);
      apiDuring = await probe(`${listing}?limit=5`, 30_000);
      // Events keep arriving while the database is away: the backlog grows.
      await produce(producer, topic, delivered.slice(cut1, cut2));
    } else {
      apiDuring = await probe(`${listing}?limit=5`, 30_000);
    }
    await untilFaultEnd();
    if (fault.databaseAway) {
      // The chunk in hand cannot be applied: the lag in seconds an operator alerts on has kept
      // growing through the outage, from the append time of that chunk's first message.
      const metrics = parsePrometheusText(await (await fetch(`http://127.0.0.1:${projectorOps}/metrics`)).text());
      expect(metrics.get('projector_lag_seconds')?.[0]?.value).toBeGreaterThan(fault.holdMs / 1000);
    }
    // Still not ready at the end of the outage, not only at its start.
    expect((await probe(projectorReady, 5000)).status).toBe(503);
    const ending = performance.now();
    await fault.end();
    const faultEnded = performance.now();
    const restartMs = Math.round(faultEnded - ending);
    const [projectorReadyMs, apiReadyMs] = await Promise.all([msUntilStatus(projectorReady, 200), msUntilStatus(apiReady, 200)]);
    await produce(producer, topic, delivered.slice(fault.databaseAway ? cut2 : cut1));
    expect(await topicEnd(admin, topic)).toBe(delivered.length);
    await waitFor(async () => expect(await committedTotal(admin, group, topic)).toBe(delivered.length), 240_000, 250);
    const caughtUpMs = Math.round(performance.now() - faultEnded);
    const actual = await readModelSnapshot(mongo.db, 1);
    expect(actual).toEqual(expected);
    // Every count kept by delta equals a recount of its records: the chunks retried through the
    // outage took no delta twice and lost none.
    expect((await recountDeltaCounts(mongo.db, 1, NOW)).miscounts).toEqual([]);
    // Both recovered in place: neither process exited.
    expect(projector.child.exitCode).toBeNull();
    expect(api.child.exitCode).toBeNull();
    expect((await probe(`${listing}?limit=5`)).status).toBe(200);
    await Promise.all([projector.stop(), api.stop()]);
    return {
      fault: fault.name,
      committedAtFault,
      delivered: delivered.length,
      projectorNotReadyMs,
      apiNotReadyMs,
      apiDuring,
      restartMs,
      projectorReadyMs,
      apiReadyMs,
      caughtUpMs,
      drift: readModelDrift(actual, expected),
    };
  }

  return {
    kafka,
    run,
    close: async () => {
      await Promise.all(running.map((p) => p.stop()));
      for (const { admin, producer, mongo } of opened) {
        await mongo.db.dropDatabase().catch(() => undefined);
        await Promise.allSettled([admin.disconnect(), producer.disconnect(), mongo.close()]);
      }
    },
  };
}

/** The 503 the API must give while the database is away: a complete error envelope with Retry-After. */
export function expectCompleteUnavailable(answer: Probe): void {
  expect(answer.status, answer.body).toBe(503);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  const length = answer.headers.get('content-length');
  if (length !== null) expect(Buffer.byteLength(answer.body)).toBe(Number(length));
  const body = JSON.parse(answer.body) as { error?: { type?: string; message?: string; details?: unknown[] } };
  expect(body.error?.type).toBe('SERVICE_UNAVAILABLE');
  expect(typeof body.error?.message).toBe('string');
  expect(body.error?.details).toEqual([]);
}

export function printReport(report: OutageReport): void {
  const { apiDuring, ...figures } = report;
  console.info(`[fault] ${JSON.stringify({ ...figures, apiDuring: { status: apiDuring.status, ms: Math.round(apiDuring.ms) } })}`);
}
