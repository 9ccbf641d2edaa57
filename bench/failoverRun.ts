import { mkdirSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { createHistory } from '../generator/index.ts';
import type { ProjectionConfig } from '../projector/evolve/index.ts';
import { createKafka, ensureTopics } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { connectMongo } from '../services/mongo/index.ts';
import { committedTotal, topicEnd } from '../test/faults/support/groupState.ts';
import { readModelDrift, type Drift } from '../test/faults/support/readModelDrift.ts';
import { listings, readModelSnapshot, referenceSnapshot, type Snapshot } from '../test/support/readModelSnapshot.ts';
import { faultFigures, type FaultFigures } from './failoverFigures.ts';
import { Fleet, type ProjectorProcess } from './failoverFleet.ts';
import { SteadyStream } from './failoverStream.ts';

export type FaultName = 'no fault' | 'crash' | 'graceful stop' | 'pause' | 'replacement joins';

export interface RunOptions {
  brokers: string[];
  mongoUrl: string;
  /** The projectors' environment (their settings); topic, group, database and ports are the run's own. */
  env: NodeJS.ProcessEnv;
  projection: ProjectionConfig;
  instances: number;
  partitions: number;
  rate: number;
  warmupMs: number;
  pauseMs: number;
  /** Steady time after each recovery, so the window holds the tail of the fault's delays. */
  settleMs: number;
  seed: number;
  logDir: string;
  /** Progress lines (each fault's wall-clock time, to find it in the projectors' and servers' logs). */
  log: (line: string) => void;
}

export interface RunResult {
  faults: { name: FaultName; figures: FaultFigures; exitMs?: number }[];
  sent: number;
  /** Events never visible, plus counted facts below the clean rebuild's. */
  lost: number;
  /** Counted facts above the clean rebuild's. */
  doubled: number;
  drift: Drift;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One run on its own topic, group and database: `instances` projectors under a steady stream;
 * one is killed (SIGKILL) and replaced, one stopped (SIGTERM) and replaced, one paused (SIGSTOP
 * for `pauseMs`, then SIGCONT). Each fault's window lasts until every partition is consumed
 * again and the group is whole, plus `settleMs`.
 */
export async function failoverRun(opts: RunOptions): Promise<RunResult> {
  const stamp = `${Date.now()}`;
  const topic = `bench.failover.${stamp}`;
  const logDir = join(opts.logDir, stamp);
  mkdirSync(logDir, { recursive: true });
  const kafka = createKafka({ clientId: 'bench-failover', brokers: opts.brokers, logger: createLogger('bench', 'error') });
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, [
    { topic, numPartitions: opts.partitions },
    { topic: `${topic}.dlq`, numPartitions: opts.partitions },
  ]);
  const mongo = await connectMongo(opts.mongoUrl, `bench_failover_${stamp}`);
  const fleet = new Fleet({ env: opts.env, topic, groupId: `bench-failover-${stamp}`, db: mongo.db.databaseName, logDir });
  const history = createHistory({ seed: opts.seed, events: Math.max(100_000, opts.rate * 600), now: new Date() })[Symbol.iterator]();
  const stream = new SteadyStream(kafka, mongo.db, topic, opts.partitions, opts.rate, history);
  let keep = false;
  const windows: { name: FaultName; faultAt: number; exitMs?: number }[] = [];

  const recovered = async (faultAt: number, members: number): Promise<void> => {
    const deadline = performance.now() + 180_000;
    while (faultFigures(stream.events, faultAt, Infinity, opts.partitions).allPartitionsMs === Infinity) {
      if (performance.now() > deadline) throw new Error('partitions not consumed again within 180 s');
      await sleep(100);
    }
    await fleet.awaitMembers(admin, members, 180_000);
    await sleep(opts.settleMs);
  };
  const oldest = (): ProjectorProcess => fleet.running[0]!;
  const replace = async (): Promise<void> => {
    const faultAt = performance.now();
    opts.log(`${new Date().toISOString()} ${(await fleet.launch()).name} launched`);
    await recovered(faultAt, opts.instances);
    windows.push({ name: 'replacement joins', faultAt });
  };

  try {
    for (let i = 0; i < opts.instances; i++) await fleet.launch();
    await fleet.awaitMembers(admin, opts.instances, 120_000);
    await stream.start();
    // The first seconds fill the new collections; the steady stream's delays are the rest of the warm-up's.
    await sleep(opts.warmupMs / 2);
    const steadyFrom = performance.now();
    await sleep(opts.warmupMs / 2);
    windows.push({ name: 'no fault', faultAt: steadyFrom });

    let faultAt = performance.now();
    opts.log(`${new Date().toISOString()} kill -9 ${oldest().name} (${logDir})`);
    oldest().child.kill('SIGKILL');
    await recovered(faultAt, opts.instances - 1);
    windows.push({ name: 'crash', faultAt });
    await replace();

    const stopping = oldest();
    faultAt = performance.now();
    opts.log(`${new Date().toISOString()} SIGTERM ${stopping.name}`);
    stopping.child.kill('SIGTERM');
    const exitMs = stopping.exited.then(() => performance.now() - faultAt);
    await recovered(faultAt, opts.instances - 1);
    windows.push({ name: 'graceful stop', faultAt, exitMs: await exitMs });
    await replace();

    const paused = oldest();
    faultAt = performance.now();
    opts.log(`${new Date().toISOString()} SIGSTOP ${paused.name} for ${opts.pauseMs} ms`);
    paused.child.kill('SIGSTOP');
    await sleep(opts.pauseMs);
    paused.child.kill('SIGCONT');
    await recovered(faultAt, opts.instances);
    windows.push({ name: 'pause', faultAt });

    await stream.stopProducing();
    const unseen = await stream.drain(60_000);
    // A chunk's states are visible before its derived documents (clubs, coaches) are written:
    // the comparison waits for every offset to be committed, which follows all of a chunk's writes.
    const end = await topicEnd(admin, topic);
    const deadline = performance.now() + 120_000;
    while ((await committedTotal(admin, fleet.liveGroup, topic)) < end && performance.now() < deadline) await sleep(200);
    const actual = await readModelSnapshot(mongo.db, 1);
    const expected = referenceSnapshot(stream.sent, opts.projection, new Date());
    const drift = readModelDrift(actual, expected);
    const differs = differing(actual, expected);
    if (differs.length > 0) {
      // Kept for a look: the database, the topic and what differs.
      keep = true;
      writeFileSync(join(logDir, 'differing.json'), JSON.stringify(differs, null, 1));
      opts.log(`documents differ from the clean rebuild: kept database ${mongo.db.databaseName} and topic ${topic}; see ${logDir}`);
    }
    return {
      // Each fault's window ends where the next one begins.
      faults: windows.map((w, i) => ({
        name: w.name,
        figures: faultFigures(stream.events, w.faultAt, windows[i + 1]?.faultAt ?? Infinity, opts.partitions),
        ...(w.exitMs === undefined ? {} : { exitMs: w.exitMs }),
      })),
      sent: stream.sent.length,
      lost: unseen + drift.countsLost,
      doubled: drift.countsDoubled,
      drift,
    };
  } finally {
    await fleet.stopAll();
    await stream.close();
    if (!keep) await mongo.db.dropDatabase();
    await mongo.close();
    if (!keep) await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
    await admin.disconnect();
  }
}

/** The documents that differ from the clean rebuild's, both sides, for the run's log folder. */
function differing(actual: Snapshot, expected: Snapshot): { listing: string; actual: unknown; expected: unknown }[] {
  const out: { listing: string; actual: unknown; expected: unknown }[] = [];
  for (const listing of listings) {
    const got = new Map(actual[listing].map((d) => [String(d._id), JSON.parse(JSON.stringify(d)) as unknown]));
    for (const doc of expected[listing]) {
      const want = JSON.parse(JSON.stringify(doc)) as unknown;
      const other = got.get(String(doc._id));
      if (!isDeepStrictEqual(other, want)) out.push({ listing, actual: other, expected: want });
    }
  }
  return out;
}
