import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import type { Logger } from '../../services/logger.ts';
import { readProjectorStatus } from '../status/readProjectorStatus.ts';
import type { ProjectorMetrics } from './projectorMetrics.ts';

/**
 * Keeps the per-partition lag gauge true when no batch arrives: a stalled or crashed consumer
 * would otherwise leave the last value standing while the topic grows. Reads Kafka's committed
 * offsets of the live group, as `npm run status` does.
 */
export function refreshLagFromKafka(opts: {
  admin: Admin;
  db: Db;
  topic: string;
  dlqTopic: string;
  groupId: string;
  metrics: ProjectorMetrics;
  logger: Logger;
  everyMs?: number;
}): () => void {
  const timer = setInterval(() => {
    readProjectorStatus(opts).then(
      (status) => {
        for (const p of status.partitions) opts.metrics.consumerLagMessages.set({ partition: String(p.partition) }, p.lag);
      },
      (error: unknown) => opts.logger.warn({ err: error }, 'could not read consumer lag from Kafka'),
    );
  }, opts.everyMs ?? 15_000);
  timer.unref();
  return () => clearInterval(timer);
}
