import cron from 'node-cron';
import type { Logger } from '../../services/logger.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import type { ProjectionStore } from '../write/projectionStore.ts';
import { derivationFailed } from './derivationFailed.ts';
import { sweepDue } from './sweepDue.ts';

export interface RunningClock {
  /** One sweep now (also what start-up runs, to catch up on what fell due while down). */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

/** node-cron drives the sweeps; a sweep never overlaps the previous one. */
export function startClock(opts: {
  schedule: string;
  store: ProjectionStore;
  config: ProjectionConfig;
  clock: () => Date;
  metrics: ProjectorMetrics;
  logger: Logger;
}): RunningClock {
  let running: Promise<void> | null = null;
  const sweep = (): Promise<void> => {
    running ??= (async () => {
      const began = performance.now();
      try {
        const result = await sweepDue(opts.store, opts.config, opts.clock(), derivationFailed(opts));
        opts.metrics.clockSweepDuration.observe((performance.now() - began) / 1000);
        for (const listing of ['competitions', 'persons', 'coaches', 'clubs'] as const) {
          if (result[listing] > 0) opts.metrics.clockTransitions.inc({ collection: listing }, result[listing]);
        }
        if (result.rounds > 0) opts.logger.info(result, 'clock applied due transitions');
      } catch (error) {
        opts.logger.error({ err: error }, 'clock sweep failed; retrying on the next tick');
      }
      try {
        // Real time, not the projection clock: changes are stamped with the instant they became visible.
        await opts.store.maintainChanges?.(new Date());
      } catch (error) {
        opts.logger.error({ err: error }, 'change feed upkeep failed; retrying on the next tick');
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const task = cron.schedule(opts.schedule, () => void sweep(), { name: 'projector-clock', noOverlap: true });
  return {
    sweep,
    stop: async () => {
      await task.stop();
      await running;
    },
  };
}
