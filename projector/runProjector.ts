import { randomUUID } from 'node:crypto';
import { readMeta } from '../services/mongo/index.ts';
import { StartRefused } from '../services/runMain.ts';
import { startClock, type RunningClock } from './clock/startClock.ts';
import { liveGroupId } from './consume/liveGroupId.ts';
import { DEFAULT_SESSION_TIMEOUT_MS, runConsumer, type RunningConsumer } from './consume/runConsumer.ts';
import type { ProjectorContext } from './projectorContext.ts';
import { upgradeFormat, type UpgradeOptions } from './upgrade/upgradeFormat.ts';
import { MongoProjectionStore } from './write/mongoProjectionStore.ts';
import { changeCollections, type ChangeRetention } from '../services/changes/index.ts';
import { projectionSink } from './write/projectionSink.ts';

export interface ProjectorOptions extends ProjectorContext {
  clockSchedule: string;
  /** How often to look for a generation switch made by a rebuild. */
  generationPollMs?: number;
  /** How an instance takes part in a format upgrade (upgradeFormat); its owner name defaults to a random one. */
  upgrade?: Partial<UpgradeOptions>;
  /** How long the change feed keeps changes; unset keeps them all (tests). */
  changeRetention?: ChangeRetention;
}

export interface RunningProjector {
  generation(): number;
  isRunning(): boolean;
  /**
   * False once the consumer has stayed stopped longer than its session timeout (restarts keep
   * failing): /health/live then fails, so the process's supervisor restarts it.
   */
  isLive(): boolean;
  /** Runs a clock sweep now and waits for it. */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

/** The consumer and the clock of one generation. */
interface Generation {
  number: number;
  consumer: RunningConsumer;
  clock: RunningClock;
}

/**
 * Consumer plus clock for the live generation, once it is of this projector's format (an older
 * one is upgraded first: upgradeFormat). When a rebuild switches the generation, this stops,
 * and starts again on the new one with the rebuild's consumer group, whose committed offsets
 * continue exactly where the rebuild left off.
 */
export async function runProjector(opts: ProjectorOptions): Promise<RunningProjector> {
  const upgrade: UpgradeOptions = { owner: `projector-${randomUUID()}`, ...opts.upgrade };
  let current: Generation = await startGeneration(opts, (await upgradeFormat(opts, upgrade)).generation);
  let stopped = false;
  /** Set when the generation switched to is of a newer format than this projector's: it must not run. */
  let refused = false;
  let switching: Promise<void> | null = null;
  const follow = async (): Promise<void> => {
    const { generation: live } = await readMeta(opts.db);
    if (live === current.number || stopped) return;
    opts.logger.info({ from: current.number, to: live }, 'generation switched by a rebuild');
    await stopGeneration(current);
    current = await startGeneration(opts, (await upgradeFormat(opts, upgrade)).generation);
  };
  const poll = setInterval(() => {
    if (switching || stopped) return;
    switching = follow()
      .catch((error: unknown) => {
        refused ||= error instanceof StartRefused;
        opts.logger[refused ? 'error' : 'warn']({ err: error }, 'could not follow the live generation');
      })
      .finally(() => (switching = null));
  }, opts.generationPollMs ?? 5000);

  return {
    generation: () => current.number,
    isRunning: () => current.consumer.isRunning(),
    isLive: () => !refused && (current.consumer.stoppedForMs() ?? 0) <= (opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS),
    sweep: () => current.clock.sweep(),
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      await switching;
      await stopGeneration(current);
    },
  };
}

async function startGeneration(opts: ProjectorOptions, generation: number): Promise<Generation> {
  const store = new MongoProjectionStore(opts.db, generation, {
    countWrites: (collection, n) => opts.metrics.databaseWrites.inc({ collection }, n),
    liveTransactionsWithinMs: opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
    ...(opts.changeRetention ? { changeRetention: opts.changeRetention } : {}),
  });
  opts.logger.info(
    { generation, transactions: await store.liveTransactions() },
    'live writes as transactions while the database reaps an abandoned one within the Kafka session timeout',
  );
  // The live writer's generation has a change feed (a rebuild's does not until it is live): its intents are read by age.
  await opts.ensureIndexes(opts.db, { ...store.names, changes: changeCollections(generation) }, undefined, opts.format);
  const clock = startClock({
    schedule: opts.clockSchedule,
    store,
    config: opts.projection,
    clock: opts.clock,
    metrics: opts.metrics,
    logger: opts.logger,
  });
  // Catch up on everything that fell due while no projector ran.
  await clock.sweep();
  const consumer = await runConsumer({
    kafka: opts.kafka,
    topic: opts.topic,
    dlqTopic: opts.dlqTopic,
    groupId: liveGroupId(opts.groupId, generation),
    sink: projectionSink(store, opts.projection, opts.clock),
    metrics: opts.metrics,
    logger: opts.logger,
    clock: opts.clock,
    chunkSize: opts.chunkSize,
    sessionTimeoutMs: opts.sessionTimeoutMs,
    heartbeatIntervalMs: opts.heartbeatIntervalMs,
    rebalanceTimeoutMs: opts.rebalanceTimeoutMs,
  });
  opts.logger.info({ generation, group: liveGroupId(opts.groupId, generation) }, 'projecting into generation');
  return { number: generation, consumer, clock };
}

async function stopGeneration({ clock, consumer }: Generation): Promise<void> {
  await clock.stop();
  await consumer.stop();
}
