import type { Db } from 'mongodb';
import type { Logger } from '../../services/logger.ts';
import { readRebuildProgress } from '../../services/mongo/index.ts';
import type { ProjectorMetrics } from './projectorMetrics.ts';

/**
 * Exports the progress `npm run rebuild` records in the database, so that the rebuild shows on
 * the projectors' /metrics (the dashboard's rebuild panel) wherever the command runs. Started
 * after this instance's own bootstrap, whose progress the same gauges carried until then.
 */
export function refreshRebuildProgress(opts: { db: Db; metrics: ProjectorMetrics; logger: Logger; everyMs?: number }): () => void {
  const timer = setInterval(() => {
    readRebuildProgress(opts.db).then(
      (progress) => {
        if (!progress) return;
        opts.metrics.rebuildProgress.set(progress.ratio);
        opts.metrics.rebuildEvents.set(progress.events);
      },
      (error: unknown) => opts.logger.warn({ err: error }, 'could not read the rebuild progress'),
    );
  }, opts.everyMs ?? 15_000);
  timer.unref();
  return () => clearInterval(timer);
}
