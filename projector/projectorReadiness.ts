import type { Admin } from 'kafkajs';
import { probeKafka } from '../services/kafka/index.ts';
import type { ReadinessCheck } from '../services/ops/index.ts';
import type { PartitionStall } from './metrics/partitionProgress.ts';

/**
 * Ready while the database answers a ping, the cluster a metadata request, the consumer is a
 * member of its group, and no partition it consumes has gone the stall time (60 s) with work and
 * no commit. Each probe has its own short time limit (a paused database must make this answer
 * "not ready" in seconds, not hang the load balancer's probe). A stalled partition is named in
 * the checks (`"partition 3": false`) and makes the projector not ready: a chunk retried on an
 * error that does not pass keeps every later event of its partition away from the read model,
 * whatever the probes say, and only operators and their orchestrator read this readiness.
 */
export function projectorReadiness(deps: {
  mongo: { ping(): Promise<boolean> };
  admin: Admin;
  projector: { isRunning(): boolean };
  partitions?: { stalled(): PartitionStall[] };
}): ReadinessCheck {
  return async () => {
    // Read before the probes: a scrape reads the consumer gauge when it starts, and a member that
    // joined during the probes made one page say "ready" beside "consumer not running".
    const consumer = deps.projector.isRunning();
    const stalled = deps.partitions?.stalled() ?? [];
    const [mongo, kafka] = await Promise.all([deps.mongo.ping(), probeKafka(deps.admin)]);
    const checks: Record<string, boolean> = { mongo, kafka, consumer, partitions: stalled.length === 0 };
    for (const { partition } of stalled) checks[`partition ${partition}`] = false;
    return { ready: mongo && kafka && consumer && stalled.length === 0, checks };
  };
}
