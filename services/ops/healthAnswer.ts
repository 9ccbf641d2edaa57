import type { ReadinessCheck } from './startOpsServer.ts';

export interface HealthAnswer {
  readonly status: 200 | 503;
  readonly body: { readonly status: 'live' | 'ready' | 'not ready'; readonly checks?: Readonly<Record<string, boolean>> };
}

/**
 * The answer of a health path, the same on every port that serves one (the API's public port
 * for load balancers, each process's operators' port): liveness needs nothing, readiness runs
 * `readiness` (give it a `recentReadiness` where probes are not under your control).
 * Undefined for any other path.
 */
export function healthAnswer(path: string, readiness: ReadinessCheck): Promise<HealthAnswer> | undefined {
  if (path === '/health/live') return Promise.resolve({ status: 200, body: { status: 'live' } });
  if (path !== '/health/ready') return undefined;
  return readiness().then(({ ready, checks }) => ({ status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not ready', checks } }));
}
