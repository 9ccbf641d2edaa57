import { Counter, Histogram, type Registry } from 'prom-client';
import type { WorkGateObserver } from './http/workGate.ts';

/**
 * The work slots' refusals and queue waits on the operators' port: a rising
 * `api_work_refused_total` says clients are getting 503s because uncached work is saturated
 * (`client_queue_full`: one client past its share, the others still served), and the wait
 * histogram says how long misses queue before one of API_WORK_CONCURRENCY slots frees.
 */
export function workGateMetrics(registry: Registry): WorkGateObserver {
  const registers = [registry];
  const refused = new Counter({
    name: 'api_work_refused_total',
    help: 'Uncached requests answered 503 for want of a work slot, by reason (queue_full, client_queue_full, timeout)',
    labelNames: ['reason'],
    registers,
  });
  const waited = new Histogram({
    name: 'api_work_queue_wait_seconds',
    help: 'How long an uncached request that queued waited for its work slot',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  return {
    refused: (reason) => refused.inc({ reason }),
    waited: (ms) => waited.observe(ms / 1000),
  };
}
