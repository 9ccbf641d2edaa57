import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { createHistory, publishHistory } from '../generator/index.ts';
import type { DomainEvent } from '../services/events/index.ts';
import { createKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { freePorts } from '../test/faults/support/freePort.ts';
import { metricSum } from './soakFigures.ts';
import { runHalf, type HalfContext, type HalfFigures } from './soakHalf.ts';
import { hostileCatalogue, invalidMessages, shuffled } from './soakHostileEvents.ts';
import { awaitReady, metricsPage, sleep, startService, type Service } from './soakProcesses.ts';
import { SoakStream } from './soakStream.ts';
import { ordinaryPaths } from './soakOrdinaryPaths.ts';

export interface SoakOptions {
  brokers: string[];
  mongoUrl: string;
  seconds: number;
  seedEvents: number;
  historySeed: number;
  rps: number;
  eventRate: number;
  hostileRps: number;
  slowClients: number;
  hostileEventRate: number;
  perType: number;
  /** Keep the services' log files (their directory is printed); a failed run always keeps them. */
  keepLogs: boolean;
  /** --max-old-space-size of the API in MB; undefined: none, as `npm start` launches it. */
  apiHeapMb?: number;
  log: (line: string) => void;
}

export interface SoakFigures {
  seeded: number;
  halves: { ordinary: HalfFigures; hostile: HalfFigures };
}

/**
 * One soak on its own topic, consumer group and database over the shared local servers: seeds
 * the topic with `seedEvents` of a generated history, starts the projector and the API as `npm
 * start` launches them on free ports, waits until the seed is projected, then runs the ordinary
 * half and the hostile half for `seconds` each, and drops everything it made.
 */
export async function runSoak(o: SoakOptions): Promise<SoakFigures> {
  const stamp = Date.now().toString(36);
  const topic = `bench.soak.${stamp}`;
  const groupId = `bench-soak-${stamp}`;
  const dbName = `bench_soak_${stamp}`;
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const kafka = createKafka({ clientId: 'bench-soak', brokers: o.brokers, logger: createLogger('bench', 'error') });
  const admin = kafka.admin();
  const mongo = await MongoClient.connect(o.mongoUrl);
  const services: Service[] = [];
  let stream: SoakStream | undefined;
  let failed = true;
  await admin.connect();
  try {
    const history = createHistory({
      seed: o.historySeed,
      events: o.seedEvents + Math.ceil(o.eventRate * o.seconds * 2.5) + 5_000,
      now: startOfToday(),
    });
    o.log(`publishing ${o.seedEvents.toLocaleString('en')} events to ${topic}`);
    const { published } = await publishHistory({ brokers: o.brokers, topic, events: take(history, o.seedEvents) });
    const [apiPort, apiOps, projectorOps] = await freePorts(3);
    const env = {
      ...process.env,
      KAFKA_BROKERS: o.brokers.join(','),
      MONGO_URL: o.mongoUrl,
      MONGO_DB: dbName,
      OPS_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    const projector = startService(
      'projector',
      { ...env, KAFKA_TOPIC: topic, KAFKA_GROUP_ID: groupId, PROJECTOR_OPS_PORT: String(projectorOps) },
      join(dir, 'projector.log'),
    );
    services.push(projector);
    const projectorMetrics = `http://127.0.0.1:${projectorOps}/metrics`;
    await awaitReady(projector, `http://127.0.0.1:${projectorOps}/health/ready`, 120_000);
    o.log('projecting the seed');
    for (let seen = 0; seen < published; await sleep(1_000)) {
      const page = await metricsPage(projectorMetrics);
      seen = metricSum(page, 'projector_events_applied_total') + metricSum(page, 'projector_events_duplicate_total');
      if (projector.child.exitCode !== null) throw new Error('the projector exited while projecting the seed');
    }
    const base = `http://127.0.0.1:${apiPort}`;
    const api = startService(
      'api',
      { ...env, API_PORT: String(apiPort), API_OPS_PORT: String(apiOps), API_PUBLIC_URL: base, TRUSTED_PROXY_COUNT: '1' },
      join(dir, 'api.log'),
      o.apiHeapMb === undefined ? [] : [`--max-old-space-size=${o.apiHeapMb}`],
    );
    services.push(api);
    await awaitReady(api, `${base}/health/ready`, 60_000);
    const urls = join(dir, 'urls.json');
    writeFileSync(urls, JSON.stringify(await ordinaryPaths(base)));

    stream = new SoakStream(kafka, mongo.db(dbName), topic, history);
    await stream.connect();
    const hostileMessages = shuffled([...hostileCatalogue(o.perType, 2026), ...invalidMessages()], 2026);
    const ctx: HalfContext = { o, admin, stream, topic, base, urls, hostileMessages, api, projector, apiOps, projectorOps };
    const ordinaryHalf = await runHalf(ctx, false);
    const hostileHalf = await runHalf(ctx, true);
    failed = false;
    return { seeded: published, halves: { ordinary: ordinaryHalf, hostile: hostileHalf } };
  } finally {
    await stream?.close().catch(() => undefined);
    for (const service of services.reverse()) await service.stop();
    await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
    const groups = (await admin.listGroups().catch(() => ({ groups: [] }))).groups
      .map((g) => g.groupId)
      .filter((g) => g.startsWith(groupId));
    await admin.deleteGroups(groups).catch(() => undefined);
    await admin.disconnect();
    await mongo.db(dbName).dropDatabase();
    await mongo.close();
    // The services' logs stay for a run that failed.
    if (failed || o.keepLogs) o.log(`the services' logs are in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** The history ends today (UTC), so the calendar has upcoming and past competitions as a live one does. */
function startOfToday(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The next `n` events of `source`, leaving the rest of it for the stream. */
function* take(source: Iterator<DomainEvent>, n: number): Generator<DomainEvent> {
  for (let i = 0; i < n; i++) {
    const next = source.next();
    if (next.done) return;
    yield next.value;
  }
}
