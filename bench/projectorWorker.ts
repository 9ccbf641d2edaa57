// One measurement of bench/projector.ts, in its own process so its peak RSS is its own.
// Prints one JSON line: { mode, events, seconds, writes, maxRssMb, ... }.
import { parseArgs } from 'node:util';
import { createKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo, dropTallies, ensureMeta } from '../services/mongo/index.ts';
import type { EventSink } from '../projector/consume/applyChunk.ts';
import { DEFAULT_SESSION_TIMEOUT_MS, FETCH_LIMITS, runConsumer } from '../projector/consume/runConsumer.ts';
import { createProjectorMetrics } from '../projector/metrics/projectorMetrics.ts';
import { ensureReadModelIndexes } from '../services/readModel/indexPlan.ts';
import { MemoryProjectionStore } from '../test/support/memoryProjectionStore.ts';
import { MongoProjectionStore } from '../projector/write/mongoProjectionStore.ts';
import { projectionSink } from '../projector/write/projectionSink.ts';
import { rebuildReadModel } from '../projector/rebuild/rebuildReadModel.ts';
import type { ProjectionStore } from '../projector/write/projectionStore.ts';
import type { DomainEvent } from '../services/events/index.ts';
import type { LivePhase } from './livePhase.ts';

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string' },
    topic: { type: 'string' },
    total: { type: 'string' },
    seconds: { type: 'string', default: '0' },
    brokers: { type: 'string' },
    mongo: { type: 'string' },
    // Default: the projector's own chunk size.
    chunk: { type: 'string' },
    rates: { type: 'string' },
    // live: `database` (the goal's figure) or `memory`, the counting store in place of the
    // database (a diagnostic: Kafka and our own pipeline, without the database's write time).
    'live-store': { type: 'string', default: 'database' },
    // live on the database: `kept` (format 4's writes: a transaction around each bulk and its
    // tallies) or `none` (the generation's tallies given up at the start, so bulks are written as
    // format 3 wrote them): the tallies' cost on the live path, side by side.
    tallies: { type: 'string', default: 'kept' },
  },
});
const total = Number(args.total);
const brokers = args.brokers!.split(',');
// Errors only: the live phases start each topic in the middle of a history, so nearly every
// aggregate's first event there is a version gap, and logging each one measured the log.
const logger = createLogger('bench', 'error');
const kafka = createKafka({ clientId: 'bench', brokers, logger });
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const group = `bench-${args.mode}-${Date.now()}`;
const limitMs = Number(args.seconds) * 1000;

function report(result: Record<string, unknown>): void {
  // What is still reachable after a full collection (the counting store's contents, in the
  // pipeline run), beside the peak RSS, which also holds the garbage V8 let build up between
  // collections. The bench runs workers with --expose-gc.
  (globalThis as { gc?: () => void }).gc?.();
  const liveHeapMb = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
  process.stdout.write(`${JSON.stringify({ ...result, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), liveHeapMb })}\n`);
}

async function noop(): Promise<void> {
  const consumer = kafka.consumer({ groupId: group, ...FETCH_LIMITS });
  await consumer.connect();
  await consumer.subscribe({ topic: args.topic!, fromBeginning: true });
  let count = 0;
  let first = 0;
  const done = new Promise<number>((resolve) => {
    void consumer.run({
      eachBatch: ({ batch }) => {
        first ||= performance.now();
        count += batch.messages.length;
        if (count >= total) resolve(performance.now());
        return Promise.resolve();
      },
    });
  });
  const end = await done;
  await consumer.disconnect();
  report({ mode: 'noop', events: count, seconds: (end - first) / 1000 });
}

/** Runs the real consumer with the given sink until every message is through or time is up. */
async function throughSink(sink: EventSink, extra: () => Record<string, unknown>, mode: string): Promise<void> {
  const metrics = createProjectorMetrics(createRegistry('bench', false));
  let first = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const counting: EventSink = {
    apply: (events) => {
      first ||= performance.now();
      return sink.apply(events);
    },
  };
  const consumer = await runConsumer({
    kafka,
    topic: args.topic!,
    dlqTopic: `${args.topic!}.dlq`,
    groupId: group,
    sink: counting,
    metrics,
    logger,
    clock: () => NOW,
    chunkSize: args.chunk === undefined ? undefined : Number(args.chunk),
  });
  const timer = limitMs > 0 ? setTimeout(finish, limitMs) : undefined;
  const poll = setInterval(() => {
    void metrics.batchSize.get().then((h) => {
      if ((h.values.find((v) => v.metricName?.endsWith('_sum'))?.value ?? 0) >= total) finish();
    });
  }, 200);
  await finished;
  const end = performance.now();
  clearInterval(poll);
  clearTimeout(timer);
  const applied = (await metrics.batchSize.get()).values.find((v) => v.metricName?.endsWith('_sum'))?.value ?? 0;
  // Reported before stopping: stopping waits for the batch in flight, which on a slow database
  // can take long, and the figure is already complete. The stop is still awaited: the caller
  // drops the database next, which must not happen under a batch still writing to it.
  report({ mode, events: applied, seconds: (end - first) / 1000, timeBoxed: applied < total, ...extra() });
  await consumer.stop();
}

/**
 * Produce-to-visible delay: a producer at a steady rate, the real consumer and Mongo writer;
 * an event's delay is the time from its send (its occurredAt) until projectBatch returned, that
 * is until its documents were durably written and readable. Each rate runs on its own topic,
 * consumer group and database, so a backlog or a grown collection of one phase never inflates
 * the next. The listed rates always run; then probes look for the highest rate the local stack
 * sustains (see probeBoundary).
 */
async function live(): Promise<void> {
  const { createHistory } = await import('../generator/index.ts');
  const source = createHistory({ seed: 99, events: 3_000_000, now: NOW })[Symbol.iterator]();
  const phases: LivePhase[] = [];
  for (const rate of (args.rates ?? '500,2000').split(',').map(Number)) phases.push(await livePhase(rate, source, 30_000));
  await probeBoundary(phases, source);
  report({ mode: 'live', phases });
}

/**
 * Halving below the lowest failing rate, or doubling above the highest rate when every listed one
 * was sustained, until the boundary lies between a sustained and a failing rate; then two
 * bisections between them (the issue asks for the rates between the doubling steps). A probe only
 * needs to know whether a backlog built up, so it waits for no long drain.
 */
async function probeBoundary(phases: LivePhase[], source: Iterator<DomainEvent>): Promise<void> {
  const probe = async (rate: number): Promise<boolean> => {
    const phase = await livePhase(rate, source, 1_500);
    phases.push({ ...phase, probe: true });
    return phase.sustained;
  };
  const failing = phases.filter((p) => !p.sustained).map((p) => p.rate);
  const held = phases.filter((p) => p.sustained).map((p) => p.rate);
  let high = failing.length > 0 ? Math.min(...failing) : 0;
  let low = held.filter((r) => high === 0 || r < high).reduce((a, b) => Math.max(a, b), 0);
  if (failing.length > 0) {
    for (let rate = Math.floor(high / 2); rate > low && rate >= 5; rate = Math.floor(rate / 2)) {
      if (await probe(rate)) low = rate;
      else high = rate;
      if (low === rate) break;
    }
  } else {
    for (let rate = 2 * low; rate <= 64_000; rate *= 2) {
      if (!(await probe(rate))) {
        high = rate;
        break;
      }
      low = rate;
    }
  }
  for (let i = 0; i < 2 && low > 0 && high > low + 1; i++) {
    const mid = Math.round((low + high) / 2);
    if (await probe(mid)) low = mid;
    else high = mid;
  }
}

async function livePhase(rate: number, source: Iterator<DomainEvent>, drainCapMs: number): Promise<LivePhase> {
  const { ensureTopics } = await import('../services/kafka/index.ts');
  const stamp = `${Date.now()}_${rate}`;
  const topic = `bench.live.${stamp}`;
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, [{ topic, numPartitions: 6 }]);
  await admin.disconnect();
  const inMemory = args['live-store'] === 'memory';
  const mongo = inMemory ? null : await connectMongo(args.mongo!, `bench_live_${stamp}`);
  let store: ProjectionStore = new MemoryProjectionStore({ clone: false, keepDocuments: false });
  if (mongo) {
    // As the projector does at start: its version bumps then update a real document.
    await ensureMeta(mongo.db);
    if (args.tallies === 'none') await dropTallies(mongo.db, 1);
    // As runProjector makes it: live bulks are transactions where the server's limit allows.
    const mongoStore = new MongoProjectionStore(mongo.db, 1, { liveTransactionsWithinMs: DEFAULT_SESSION_TIMEOUT_MS });
    await ensureReadModelIndexes(mongo.db, mongoStore.names);
    store = mongoStore;
  }
  const metrics = createProjectorMetrics(createRegistry('bench', false));
  const delays: number[] = [];
  let applied = 0;
  const sink = projectionSink(store, config, () => new Date());
  const consumer = await runConsumer({
    kafka,
    topic,
    dlqTopic: `${topic}.dlq`,
    groupId: `${group}-${rate}`,
    metrics,
    logger,
    clock: () => new Date(),
    sink: {
      apply: async (events) => {
        const outcomes = await sink.apply(events);
        const now = Date.now();
        for (const e of events) delays.push(now - Date.parse(e.occurredAt));
        applied += events.length;
        return outcomes;
      },
    },
  });
  // The delay of a steady stream, not of the group join: kafkajs's run() returns before the
  // member has its partitions, and events produced meanwhile waited for the join: at 500 events/s
  // the p99 was 856 ms producing at once, 118 ms producing after the join (one run each).
  const joinDeadline = Date.now() + 30_000;
  while (!consumer.isRunning() && Date.now() < joinDeadline) await new Promise((r) => setTimeout(r, 20));
  const producer = kafka.producer();
  await producer.connect();
  const phaseSeconds = 15;
  const tick = 100;
  const startedAt = Date.now();
  let sent = 0;
  while (Date.now() - startedAt < phaseSeconds * 1000) {
    const due = Math.floor(((Date.now() - startedAt) / 1000) * rate) - sent;
    if (due > 0) {
      const messages = [];
      for (let i = 0; i < due; i++) {
        const event = source.next().value as DomainEvent;
        messages.push({ key: event.aggregateId, value: JSON.stringify({ ...event, occurredAt: new Date().toISOString() }) });
      }
      // Kafka refuses a record batch over 1 MB: a fast phase's tick is sent in slices.
      for (let i = 0; i < messages.length; i += 500) await producer.send({ topic, acks: -1, messages: messages.slice(i, i + 500) });
      sent += due;
    }
    await new Promise((r) => setTimeout(r, Math.max(1, tick - ((Date.now() - startedAt) % tick))));
  }
  const drainStart = Date.now();
  while (applied < sent && Date.now() - drainStart < drainCapMs) await new Promise((r) => setTimeout(r, 50));
  const drainMs = Date.now() - drainStart;
  const sorted = [...delays].sort((a, b) => a - b);
  const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  await producer.disconnect();
  await consumer.stop();
  await mongo?.db.dropDatabase();
  await mongo?.close();
  return {
    rate,
    sent,
    achievedRate: Math.round(sent / phaseSeconds),
    p50Ms: pct(50),
    p99Ms: pct(99),
    sustained: sent >= 0.95 * rate * phaseSeconds && applied >= sent && drainMs <= 1000,
    drainMs,
    unapplied: Math.max(0, sent - applied),
  };
}

/**
 * The operator's rebuild (what `npm run rebuild` and a first start run) into a new database:
 * the replay with the writer's indexes only, then the API's and the clock's indexes, then the
 * switch. Seconds run from its start to the switch, so they include the index build.
 */
async function rebuild(): Promise<void> {
  const mongo = await connectMongo(args.mongo!, `bench_rebuild_${Date.now()}`);
  const metrics = createProjectorMetrics(createRegistry('bench', false));
  let replayEnded = 0;
  let indexSeconds = 0;
  const began = performance.now();
  try {
    const result = await rebuildReadModel({
      db: mongo.db,
      kafka,
      topic: args.topic!,
      dlqTopic: `${args.topic!}.dlq`,
      groupId: group,
      projection: config,
      clock: () => NOW,
      metrics,
      logger,
      // Called for each listing as soon as its documents are derived (the competitions' a few
      // seconds after the replay), then once for all: the index seconds run from the first call
      // to the end of the last, the derivation beside the builds included.
      ensureIndexes: async (db, names, listings) => {
        replayEnded ||= performance.now();
        await ensureReadModelIndexes(db, names, listings);
        indexSeconds = (performance.now() - replayEnded) / 1000;
      },
      dropAfterMs: 0,
    });
    const writes = (await metrics.databaseWrites.get()).values.reduce((sum, v) => sum + v.value, 0);
    report({
      mode: 'rebuild',
      events: result.messages,
      seconds: result.seconds,
      replaySeconds: (replayEnded - began) / 1000,
      indexSeconds,
      writes,
    });
  } finally {
    await mongo.db.dropDatabase();
    await mongo.close();
  }
}

async function main(): Promise<void> {
  if (args.mode === 'noop') return noop();
  if (args.mode === 'pipeline') {
    const store = new MemoryProjectionStore({ clone: false, keepDocuments: false });
    return throughSink(
      projectionSink(store, config, () => NOW),
      () => ({ writes: store.totalWrites, writesByCollection: Object.fromEntries(store.writes), rewritesInBatch: store.rewritesInBatch }),
      'pipeline',
    );
  }
  if (args.mode === 'validate') {
    // The real consumer with every message decoded, validated and counted, and no fold: the
    // cost floor of any pipeline that validates each event, whatever it then does with it.
    return throughSink({ apply: (events) => Promise.resolve(events.map(() => 'applied' as const)) }, () => ({}), 'validate');
  }
  if (args.mode === 'live') return live();
  if (args.mode === 'rebuild') return rebuild();
  if (args.mode === 'e2e') {
    const mongo = await connectMongo(args.mongo!, `bench_e2e_${Date.now()}`);
    await ensureMeta(mongo.db);
    const byCollection = new Map<string, number>();
    const store = new MongoProjectionStore(mongo.db, 1, {
      countWrites: (c, n) => byCollection.set(c, (byCollection.get(c) ?? 0) + n),
      liveTransactionsWithinMs: DEFAULT_SESSION_TIMEOUT_MS,
    });
    await ensureReadModelIndexes(mongo.db, store.names);
    try {
      await throughSink(
        projectionSink(store, config, () => NOW),
        () => ({ writes: [...byCollection.values()].reduce((a, b) => a + b, 0) }),
        'e2e',
      );
    } finally {
      await mongo.db.dropDatabase();
      await mongo.close();
    }
    return;
  }
  throw new Error(`unknown mode ${args.mode}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
