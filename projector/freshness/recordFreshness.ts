import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import type { Logger } from '../../services/logger.ts';
import { recordCurrentAt } from '../../services/mongo/index.ts';
import { readProjectorStatus } from '../status/readProjectorStatus.ts';
import { currentInstant, keepSnapshots, type EndsSnapshot } from './currentInstant.ts';

export interface RecordFreshnessOptions {
  readonly admin: Admin;
  readonly db: Db;
  readonly topic: string;
  readonly dlqTopic: string;
  readonly groupId: string;
  readonly logger: Logger;
  readonly clock?: () => number;
  /** How often the offsets are read; the API's freshness header trails the truth by up to this. */
  readonly everyMs?: number;
  /** Snapshots kept: a partition further behind than everyMs × window is reported as not current. */
  readonly window?: number;
}

/**
 * Records in the read-model meta the instant up to which the read model is current (see
 * currentInstant), for the API's `X-Data-Current-At` header. Every projector instance runs it;
 * the group's committed offsets are the same for all, and the write keeps the maximum.
 */
export function recordFreshness(opts: RecordFreshnessOptions): () => void {
  const clock = opts.clock ?? Date.now;
  let snapshots: EndsSnapshot[] = [];
  let failing = false;
  const tick = async (): Promise<void> => {
    const at = clock();
    const status = await readProjectorStatus(opts);
    if (!status.topicExists) return;
    snapshots = keepSnapshots(snapshots, { at, ends: new Map(status.partitions.map((p) => [p.partition, p.end])) }, opts.window ?? 600);
    const instant = currentInstant(snapshots, new Map(status.partitions.map((p) => [p.partition, p.end - p.lag])));
    if (instant !== null) await recordCurrentAt(opts.db, status.generation, new Date(instant));
  };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .then(
        () => {
          if (failing) opts.logger.info("recording the read model's freshness again");
          failing = false;
        },
        (error: unknown) => {
          // Once per outage: the broker or the database being away is reported by readiness.
          if (!failing) opts.logger.warn({ err: error }, "could not record the read model's freshness");
          failing = true;
        },
      )
      .finally(() => (running = false));
  }, opts.everyMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
