import { ensureMeta, readMeta } from '../services/mongo/index.ts';
import { startClock, type RunningClock } from './clock/startClock.ts';
import { liveGroupId } from './consume/liveGroupId.ts';
import { DEFAULT_SESSION_TIMEOUT_MS, runConsumer, type RunningConsumer } from './consume/runConsumer.ts';
import type { ProjectorContext } from './projectorContext.ts';
import { MongoProjectionStore } from './write/mongoProjectionStore.ts';
import { projectionSink } from './write/projectionSink.ts';

export interface ProjectorOptions extends ProjectorContext {
  clockSchedule: string;
  /** How often to look for a generation switch made by a rebuild. */
  generationPollMs?: number;
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

/**
 * Consumer plus clock for the live generation. When a rebuild switches the generation, this
 * stops, and starts again on the new one with the rebuild's consumer group, whose committed
 * offsets continue exactly where the rebuild left off.
 */
export async function runProjector(opts: ProjectorOptions): Promise<RunningProjector> {
  let generation = 0;
  let consumer: RunningConsumer | null = null;
  let clock: RunningClock | null = null;
  let stopped = false;

  async function startGeneration(next: number): Promise<void> {
    generation = next;
    const store = new MongoProjectionStore(opts.db, next, {
      countWrites: (collection, n) => opts.metrics.databaseWrites.inc({ collection }, n),
    });
    await opts.ensureIndexes(opts.db, store.names);
    clock = startClock({
      schedule: opts.clockSchedule,
      store,
      config: opts.projection,
      clock: opts.clock,
      metrics: opts.metrics,
      logger: opts.logger,
    });
    // Catch up on everything that fell due while no projector ran.
    await clock.sweep();
    consumer = await runConsumer({
      kafka: opts.kafka,
      topic: opts.topic,
      dlqTopic: opts.dlqTopic,
      groupId: liveGroupId(opts.groupId, next),
      sink: projectionSink(store, opts.projection, opts.clock),
      metrics: opts.metrics,
      logger: opts.logger,
      clock: opts.clock,
      chunkSize: opts.chunkSize,
      sessionTimeoutMs: opts.sessionTimeoutMs,
      heartbeatIntervalMs: opts.heartbeatIntervalMs,
      rebalanceTimeoutMs: opts.rebalanceTimeoutMs,
    });
    opts.logger.info({ generation: next, group: liveGroupId(opts.groupId, next) }, 'projecting into generation');
  }

  async function stopGeneration(): Promise<void> {
    await clock?.stop();
    await consumer?.stop();
    clock = null;
    consumer = null;
  }

  await startGeneration((await ensureMeta(opts.db)).generation);
  let switching: Promise<void> | null = null;
  const poll = setInterval(() => {
    if (switching || stopped) return;
    switching = (async () => {
      try {
        const { generation: live } = await readMeta(opts.db);
        if (live !== generation && !stopped) {
          opts.logger.info({ from: generation, to: live }, 'generation switched by a rebuild');
          await stopGeneration();
          await startGeneration(live);
        }
      } catch (error) {
        opts.logger.warn({ err: error }, 'could not read the live generation');
      } finally {
        switching = null;
      }
    })();
  }, opts.generationPollMs ?? 5000);

  return {
    generation: () => generation,
    isRunning: () => consumer?.isRunning() ?? false,
    isLive: () => (consumer?.stoppedForMs() ?? 0) <= (opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS),
    sweep: () => clock?.sweep() ?? Promise.resolve(),
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      await switching;
      await stopGeneration();
    },
  };
}
