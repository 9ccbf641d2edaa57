import Koa from 'koa';
import type { Config } from '../services/config/index.ts';
import type { Logger } from '../services/logger.ts';
import type { ReadinessCheck } from '../services/ops/index.ts';

export interface AppDependencies {
  config: Readonly<Config>;
  logger: Logger;
  readiness: ReadinessCheck;
}

/** The public HTTP app. Health lives outside the versioned base path for load balancers. */
export function createApp(deps: AppDependencies): Koa {
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.path === '/health/live') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'live' };
      return;
    }
    if (ctx.path === '/health/ready') {
      const { ready, checks } = await deps.readiness();
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ready' : 'not ready', checks };
      return;
    }
    await next();
  });
  return app;
}
