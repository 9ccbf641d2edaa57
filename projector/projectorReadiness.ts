import type { Admin } from 'kafkajs';
import { probeKafka } from '../services/kafka/index.ts';
import type { ReadinessCheck } from '../services/ops/index.ts';

/**
 * Ready while the database answers a ping, the cluster a metadata request, and the consumer is
 * a member of its group. Each probe has its own short time limit (a paused database must make
 * this answer "not ready" in seconds, not hang the load balancer's probe).
 */
export function projectorReadiness(deps: {
  mongo: { ping(): Promise<boolean> };
  admin: Admin;
  projector: { isRunning(): boolean };
}): ReadinessCheck {
  return async () => {
    // Read before the probes: a scrape reads the consumer gauge when it starts, and a member that
    // joined during the probes made one page say "ready" beside "consumer not running".
    const consumer = deps.projector.isRunning();
    const [mongo, kafka] = await Promise.all([deps.mongo.ping(), probeKafka(deps.admin)]);
    return { ready: mongo && kafka && consumer, checks: { mongo, kafka, consumer } };
  };
}
