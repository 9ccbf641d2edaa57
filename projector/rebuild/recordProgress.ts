import type { Db } from 'mongodb';
import type { Logger } from '../../services/logger.ts';
import { recordRebuildProgress } from '../../services/mongo/index.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';

/**
 * Records a running rebuild's progress (from its gauges) in the database every `everyMs`, where
 * the projectors' /metrics and `npm run status` read it wherever the rebuild runs; `line` hears
 * each new ratio (not the same one again while the work after the replay keeps it at 1).
 * Returns what records the end.
 */
export function recordProgress(
  db: Db,
  metrics: ProjectorMetrics,
  logger: Logger,
  opts: { everyMs?: number; line?: (ratio: number) => void } = {},
): { finished(): Promise<void>; stop(): void } {
  const startedAt = new Date();
  let heard: number | undefined;
  const record = async (finishedAt: Date | null): Promise<void> => {
    const [ratio, events] = await Promise.all([metrics.rebuildProgress.get(), metrics.rebuildEvents.get()]);
    const progress = { ratio: ratio.values[0]?.value ?? 0, events: events.values[0]?.value ?? 0 };
    await recordRebuildProgress(db, { ...progress, startedAt, updatedAt: new Date(), finishedAt });
    if (!finishedAt && progress.ratio !== heard) {
      heard = progress.ratio;
      opts.line?.(progress.ratio);
    }
  };
  const recordNow = (): void => {
    record(null).catch((error: unknown) => logger.warn({ err: error }, 'could not record the rebuild progress'));
  };
  recordNow();
  const timer = setInterval(recordNow, opts.everyMs ?? 5000);
  return {
    finished: () => {
      clearInterval(timer);
      return record(new Date());
    },
    stop: () => clearInterval(timer),
  };
}
