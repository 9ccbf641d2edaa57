import type { ReadinessCheck } from './startOpsServer.ts';

export interface HealthAnswer {
  readonly status: 200 | 503;
  readonly body: { readonly status: 'live' | 'not live' | 'ready' | 'not ready'; readonly checks?: Readonly<Record<string, boolean>> };
}

/**
 * The answer of a health path, the same on every port that serves one (the API's public port
 * for load balancers, each process's operators' port): liveness asks `live` (a process whose work
 * has stopped for good is not live, so its supervisor restarts it), readiness runs `readiness`
 * (give it a `recentReadiness` where probes are not under your control). Undefined for any other
 * path.
 */
export function healthAnswer(path: string, readiness: ReadinessCheck, live: () => boolean = () => true): Promise<HealthAnswer> | undefined {
  if (path === '/health/live') {
    return Promise.resolve(live() ? { status: 200, body: { status: 'live' } } : { status: 503, body: { status: 'not live' } });
  }
  if (path !== '/health/ready') return undefined;
  return readiness().then(({ ready, checks }) => ({ status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not ready', checks } }));
}
