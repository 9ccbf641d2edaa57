// The change feed under subscribers: node bench/changes.ts [--subscribers 200] [--rate 50] [--seconds 20]
//   [--competitions N] [--workers 2] [--sampled 20] [--connect-batch 250] [--per-address 50] [--keep-logs]
//   [--results FILE|none]
// (`npm run bench:changes`). One API instance and one projector, as `npm start` launches them, on
// the local Kafka and database (KAFKA_BROKERS, MONGO_URL) with their own topic, group, database and
// free ports. `--subscribers` event streams of GET /changes are held open by `--workers` processes
// of raw connections (bench/changeSubscribers.ts); then renames of seeded competitions are produced
// at `--rate` a second for `--seconds`, each one change. Prints produce → subscriber p50/p99/max
// (over the `--sampled` subscribers that parse what they get), how many changes every subscriber
// got, and the API's RSS and CPU while it served them. Drops what it made.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import type { ChangePage } from '../client/index.ts';
import { API_MEMORY_FLAGS } from '../api/memoryBound.ts';
import { createKafka, ensureTopics } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { freePorts } from '../test/faults/support/freePort.ts';
import { ChangeProducer } from './changeProducer.ts';
import type { SubscriberCommand, SubscriberOptions, SubscriberReport } from './changeSubscribers.ts';
import { resultsRecorder, RESULTS_FILE } from './saveResults.ts';
import { mb, ms, percentile, table } from './soakFigures.ts';
import { awaitReady, cpuSeconds, sleep, startService, type Service } from './soakProcesses.ts';

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '200' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    // Enough that no competition is renamed twice within a second of itself at any rate.
    competitions: { type: 'string' },
    workers: { type: 'string', default: '2' },
    sampled: { type: 'string', default: '20' },
    'connect-batch': { type: 'string', default: '250' },
    // Subscribers per loopback source address: the API sees each address as one client.
    'per-address': { type: 'string', default: '50' },
    'keep-logs': { type: 'boolean', default: false },
    results: { type: 'string', default: RESULTS_FILE },
  },
});
const record = resultsRecorder('bench:changes', args.results);
const log = (line: string): void => void process.stderr.write(`› ${line}\n`);
const subscribers = Number(args.subscribers);
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const workers = Math.max(1, Math.min(Number(args.workers), subscribers));
const sampled = Math.min(Number(args.sampled), subscribers);
const competitions = Number(args.competitions ?? Math.max(200, rate * 5));
const perAddress = Number(args['per-address']);
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const mongoUrl = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/?directConnection=true';

const stamp = Date.now().toString(36);
const topic = `bench.changes.${stamp}`;
const groupId = `bench-changes-${stamp}`;
const dbName = `bench_changes_${stamp}`;
const dir = mkdtempSync(join(tmpdir(), 'bench-changes-'));
const kafka = createKafka({ clientId: 'bench-changes', brokers, logger: createLogger('bench', 'error') });
const admin = kafka.admin();
const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
const services: Service[] = [];
const children: ChildProcess[] = [];
let failed = true;
await admin.connect();
await producer.connect();
try {
  await ensureTopics(admin, [{ topic, numPartitions: 3 }]);
  const [apiPort, apiOps, projectorOps] = await freePorts(3);
  const env = {
    ...process.env,
    KAFKA_BROKERS: brokers.join(','),
    MONGO_URL: mongoUrl,
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
  await awaitReady(projector, `http://127.0.0.1:${projectorOps}/health/ready`, 120_000);
  const base = `http://127.0.0.1:${apiPort}`;
  // Each source address holds `perAddress` streams (the cap is raised to that) and opens them all at once (so is its budget).
  const api = startService(
    'api',
    {
      ...env,
      ...FEED_ENV(perAddress),
      API_PORT: String(apiPort),
      API_OPS_PORT: String(apiOps),
      API_PUBLIC_URL: base,
      RATE_LIMIT_MAX: '1000000',
    },
    join(dir, 'api.log'),
    API_MEMORY_FLAGS,
  );
  services.push(api);
  await awaitReady(api, `${base}/health/ready`, 60_000);

  const events = new ChangeProducer(producer, topic, competitions);
  log(`seeding ${competitions} published competitions`);
  await events.seed();
  for (let total = 0; total < competitions; await sleep(500)) {
    const page = (await (await fetch(`${base}/api/v1/competitions?limit=1`)).json()) as { meta: { total: number } };
    total = page.meta.total;
  }
  // The stream starts after the seed's changes: only the timed renames reach the subscribers.
  const after = await latestCursor(base);
  const url = `${base}/api/v1/changes?after=${encodeURIComponent(after)}`;

  log(`opening ${subscribers} event streams from ${workers} processes`);
  const samples: [number, string, number][] = [];
  const totals: Extract<SubscriberReport, { kind: 'totals' }>[] = [];
  const connected: number[] = [];
  const connectStarted = performance.now();
  const perWorker = Math.ceil(subscribers / workers);
  for (let first = 0; first < subscribers; first += perWorker) {
    const options: SubscriberOptions = {
      url,
      count: Math.min(perWorker, subscribers - first),
      sampled: Math.max(0, Math.min(perWorker, sampled - first)),
      firstIndex: first,
      connectBatch: Number(args['connect-batch']),
      perAddress,
    };
    const child = fork(new URL('./changeSubscribers.ts', import.meta.url), [JSON.stringify(options)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (report: SubscriberReport) => {
      if (report.kind === 'connected') connected.push(report.count);
      else if (report.kind === 'samples') samples.push(...report.samples);
      else totals.push(report);
    });
    children.push(child);
  }
  while (connected.length < children.length) await sleep(100);
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  log(
    `${connected.reduce((a, b) => a + b, 0)} streams open in ${connectSeconds.toFixed(1)} s; producing ${rate} changes/s for ${seconds} s`,
  );
  await sleep(1_000);

  const usage: { rss: number; cpu: number; at: number }[] = [];
  const sampleUsage = (): void =>
    void usage.push({ rss: rssBytes(api.child.pid!), cpu: cpuSeconds(api.child.pid!), at: performance.now() });
  sampleUsage();
  const sampler = setInterval(sampleUsage, 1_000);
  const produceStarted = performance.now();
  await events.run(rate, seconds);
  const produceSeconds = (performance.now() - produceStarted) / 1000;
  // The backlog's drain: until every sampled subscriber has every change, or 15 s.
  const expected = events.sent * sampled;
  for (let waited = 0; samples.length < expected && waited < 15_000; waited += 250) await sleep(250);
  clearInterval(sampler);
  sampleUsage();

  for (const child of children) child.send({ kind: 'stop' } satisfies SubscriberCommand);
  while (totals.length < children.length) await sleep(100);

  const latencies = matchSamples(samples, events.producedAt);
  // An API that died (its heap cap, say) has no RSS or CPU left to read: the table says so, and its log is kept.
  const apiEnd = api.child.exitCode ?? api.child.signalCode;
  const perSubscriber = totals.flatMap((t) => t.events).sort((a, b) => a - b);
  // Up to the last sample the API was alive for.
  const alive = usage.filter((u) => !Number.isNaN(u.rss) && !Number.isNaN(u.cpu));
  const cpu = (alive.at(-1)!.cpu - alive[0]!.cpu) / ((alive.at(-1)!.at - alive[0]!.at) / 1000);
  const rows = [
    [
      'subscribers open / asked',
      `${connected.reduce((a, b) => a + b, 0)} / ${subscribers} (${workers} processes, ${connectSeconds.toFixed(1)} s to open)`,
    ],
    [
      'changes produced',
      `${events.sent} in ${produceSeconds.toFixed(1)} s (${(events.sent / produceSeconds).toFixed(0)}/s asked ${rate}/s)`,
    ],
    ['changes per subscriber min / median', `${perSubscriber[0] ?? 0} / ${perSubscriber[Math.floor((perSubscriber.length - 1) / 2)] ?? 0}`],
    ['changes delivered in all', perSubscriber.reduce((a, b) => a + b, 0).toLocaleString('en')],
    [
      'produce → subscriber p50 / p99 / max',
      `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} / ${ms(Math.max(...latencies))} (${latencies.length.toLocaleString('en')} samples, ${sampled} subscribers)`,
    ],
    ['sampled changes missing at the end', String(expected - latencies.length)],
    ['API RSS before / peak / end', `${mb(alive[0]!.rss)} / ${mb(Math.max(...alive.map((u) => u.rss)))} / ${mb(usage.at(-1)!.rss)}`],
    ['API CPU while producing and draining', `${(cpu * 100).toFixed(0)} % of one core`],
    ['bytes received by the subscribers', mb(totals.reduce((n, t) => n + t.bytes, 0))],
    ['streams closed by the API during the run', String(totals.reduce((n, t) => n + t.dropped, 0))],
    ['API process at the end', apiEnd === null ? 'running' : `exited (${String(apiEnd)}): see its log`],
    ['load average at the end (1 min, 2 cores)', loadavg()[0]!.toFixed(2)],
  ];
  const report = `${subscribers} subscribers, ${rate} changes/s for ${seconds} s, ${competitions} competitions\n\n${table(['measure', 'value'], rows)}`;
  process.stdout.write(`${report}\n`);
  record('', report);
  failed = apiEnd !== null;
} finally {
  for (const child of children) child.kill();
  for (const service of services.reverse()) await service.stop();
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
  const groups = (await admin.listGroups().catch(() => ({ groups: [] }))).groups.map((g) => g.groupId).filter((g) => g.startsWith(groupId));
  await admin.deleteGroups(groups).catch(() => undefined);
  await admin.disconnect();
  const mongo = await MongoClient.connect(mongoUrl);
  await mongo.db(dbName).dropDatabase();
  await mongo.close();
  if (failed || args['keep-logs']) log(`the services' logs are in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.exit(0);

/** The per-client caps on streams and connections, raised so that one source address may hold its subscribers' streams. */
function FEED_ENV(streams: number): Record<string, string> {
  return { CHANGES_STREAMS_PER_CLIENT: String(streams), API_CONNECTIONS_PER_CLIENT: String(streams + 4) };
}

/** The cursor of the newest change. */
async function latestCursor(base: string): Promise<string> {
  const page = (await (await fetch(`${base}/api/v1/changes?limit=1`)).json()) as ChangePage;
  return page.meta.latest;
}

/** Resident memory of a process, from /proc (NaN once it is gone). */
function rssBytes(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

/** Produce → receive of each sampled change: a subscriber's n-th change of a competition is its n-th rename. */
function matchSamples(all: readonly [number, string, number][], producedAt: ReadonlyMap<string, number[]>): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  for (const [subscriber, id, receivedAt] of all) {
    const key = `${subscriber} ${id}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const produced = producedAt.get(id)?.[n];
    if (produced !== undefined) out.push(receivedAt - produced);
  }
  return out;
}
