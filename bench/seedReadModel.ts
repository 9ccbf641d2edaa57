import { fileURLToPath } from 'node:url';
import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import { createHistory, publishHistory } from '../generator/index.ts';
import { createProjectorMetrics } from '../projector/metrics/projectorMetrics.ts';
import { rebuildReadModel } from '../projector/rebuild/rebuildReadModel.ts';
import { countTopicMessages, createKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { readMeta, readRebuildProgress, recordRebuildProgress } from '../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../services/readModel/indexPlan.ts';
import { READ_MODEL_FORMAT } from '../services/readModel/readModelFormat.ts';
import { duration, progressLine, throttled } from './seedProgress.ts';
import { modelVerdict, topicVerdict, type SeedStamp } from './seedStamp.ts';
import { sourceFingerprint } from './sourceFingerprint.ts';

export interface SeedOptions {
  db: Db;
  brokers: readonly string[];
  seed: number;
  events: number;
  now: Date;
  /** Rebuild even when the model would be reused (after a change of the documents that kept the format). */
  reseed?: boolean;
  log: (line: string) => void;
}

export interface SeedReport {
  /** How the model came to be: reused, or the publish (or the topic reused) and the rebuild, with their times. */
  summary: string;
  reused: boolean;
  seconds: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMPS = 'bench_seed';
const PROGRESS_EVERY_MS = 5000;

/**
 * Makes `db`'s live generation the read model of a generated history the way an operator would:
 * the history is published once to a bench topic (reused while it holds the same history), then
 * `rebuildReadModel` replays it into the database with its progress printed. A database whose
 * live generation is a finished seed of the same history in the format this code writes is
 * reused as it is.
 */
export async function seedReadModel(opts: SeedOptions): Promise<SeedReport> {
  const began = performance.now();
  const since = (): number => (performance.now() - began) / 1000;
  const history = sourceFingerprint(ROOT, ['generator'], { seed: opts.seed, events: opts.events, now: opts.now.toISOString() });
  const expected = { topic: `bench.api.s${opts.seed}.n${opts.events}`, history };
  const stamps = opts.db.collection<SeedStamp & { _id: string }>(STAMPS);
  const found = await stamps.findOne({ _id: 'seed' });
  const verdict = opts.reseed
    ? { reuse: false, why: 'asked to (--reseed)' }
    : modelVerdict(found, { history, format: READ_MODEL_FORMAT }, await readMeta(opts.db), await readRebuildProgress(opts.db));
  if (verdict.reuse) {
    const summary = `reused (its meta records a finished seed of the same history in format ${READ_MODEL_FORMAT})`;
    return { summary, reused: true, seconds: since() };
  }
  opts.log(`seeding ${opts.db.databaseName}: ${verdict.why}`);
  const save = (stamp: SeedStamp): Promise<unknown> => stamps.replaceOne({ _id: 'seed' }, stamp, { upsert: true });

  const logger = createLogger('bench', 'warn');
  const kafka = createKafka({ clientId: 'bench-seed', brokers: opts.brokers, logger });
  const admin = kafka.admin();
  await admin.connect();
  let published: number;
  let publishing: string;
  try {
    const onTopic = topicVerdict(found, expected, await countTopicMessages(admin, expected.topic));
    if (onTopic.reuse) {
      published = found!.published;
      publishing = `topic ${expected.topic} reused (${published} events)`;
      opts.log(publishing);
    } else {
      opts.log(`publishing the history to ${expected.topic}: ${onTopic.why}`);
      await deleteTopic(admin, expected.topic);
      await save({ ...expected, published: 0, generation: null });
      const publishBegan = performance.now();
      const seconds = (): number => (performance.now() - publishBegan) / 1000;
      const print = throttled(
        PROGRESS_EVERY_MS,
        () => performance.now(),
        (n: number) => opts.log(progressLine('published', n, opts.events, seconds())),
      );
      ({ published } = await publishHistory({
        brokers: [...opts.brokers],
        topic: expected.topic,
        partitions: 6,
        events: createHistory({ seed: opts.seed, events: opts.events, now: opts.now }),
        onProgress: (n) => print(false, n),
      }));
      print(true, published);
      publishing = `published ${published} events in ${duration(seconds())}`;
    }
  } finally {
    await admin.disconnect();
  }
  // Unfinished until the switch: a seed stopped before it is never taken for a finished one.
  await save({ ...expected, published, generation: null });
  const startedAt = new Date();
  await recordRebuildProgress(opts.db, { ratio: 0, events: 0, startedAt, updatedAt: startedAt, finishedAt: null });

  const rebuildBegan = performance.now();
  const elapsed = (): number => (performance.now() - rebuildBegan) / 1000;
  const print = throttled(
    PROGRESS_EVERY_MS,
    () => performance.now(),
    (applied: number, total: number) => opts.log(`rebuild: ${progressLine('replayed', applied, total, elapsed())}`),
  );
  const result = await rebuildReadModel({
    db: opts.db,
    kafka,
    topic: expected.topic,
    dlqTopic: `${expected.topic}.dlq`,
    groupId: `bench-seed-${opts.db.databaseName}`,
    projection: { zone: 'UTC', bufferPeriodDays: 30 },
    // The history's "now", so that the same history always gives the same documents.
    clock: () => opts.now,
    metrics: createProjectorMetrics(createRegistry('bench', false)),
    logger,
    ensureIndexes: ensureReadModelIndexes,
    // Nobody reads the previous generation of a bench database.
    dropAfterMs: 0,
    onProgress: ({ applied, total }) => print(applied >= total, applied, total),
    onStage: (stage) => opts.log(`rebuild: ${duration(elapsed())}: ${stage}`),
  });
  const finishedAt = new Date();
  await recordRebuildProgress(opts.db, { ratio: 1, events: result.messages, startedAt, updatedAt: finishedAt, finishedAt });
  await save({ ...expected, published, generation: result.to });
  const rebuilding = `rebuilt generation ${result.to} from ${result.messages} events in ${duration(result.seconds)}`;
  opts.log(rebuilding);
  return { summary: `${publishing}; ${rebuilding}`, reused: false, seconds: since() };
}

/** Deletes a stale bench topic and waits until the broker no longer lists it, so it can be created again. */
async function deleteTopic(admin: Admin, topic: string): Promise<void> {
  if (!(await admin.listTopics()).includes(topic)) return;
  await admin.deleteTopics({ topics: [topic] });
  for (let i = 0; i < 300 && (await admin.listTopics()).includes(topic); i++) await new Promise((r) => setTimeout(r, 100));
}
