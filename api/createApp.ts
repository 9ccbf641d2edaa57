import Koa from 'koa';
import type { Db } from 'mongodb';
import type { Registry } from 'prom-client';
import type { Config } from '../services/config/index.ts';
import type { Logger } from '../services/logger.ts';
import type { ReadinessCheck } from '../services/ops/index.ts';
import { healthAnswer } from '../services/ops/healthAnswer.ts';
import { recentReadiness } from '../services/ops/recentReadiness.ts';
import { answerHitsFirst, httpFront, trustProxies, type RateLimitStore } from './http/index.ts';
import { earlyHitHooks } from './earlyHitHooks.ts';
import { ReadModelSource } from './readModelSource.ts';
import { dataFreshnessHeader } from './dataFreshnessHeader.ts';
import { httpMetrics } from './httpMetrics.ts';
import { requestLog } from './requestLog.ts';
import { resourceRoutes } from './resources/index.ts';
import { ChangeFeed } from './resources/changeFeed.ts';
import { changeFeedRoute } from './resources/changeFeedRoute.ts';
import { searchGate } from './searchGate.ts';

export interface AppDependencies {
  config: Readonly<Config>;
  logger: Logger;
  /** Served on /health/ready through `recentReadiness` (pass one already made to share it with another port). */
  readiness: ReadinessCheck;
  /** The database holding the read model (`MongoConnection.db`). */
  db: Db;
  /** Milliseconds since the epoch: rate-limit window, cache expiry, "today". Default `Date.now`. */
  clock?: () => number;
  /** Default: a ReadModelSource over `db`. */
  readModel?: ReadModelSource;
  /** Default: the in-memory store (one instance); a shared store serves several. */
  rateLimitStore?: RateLimitStore;
  /** Registry of the operators' port; request metrics are registered in it when given. */
  metrics?: Registry;
}

/**
 * The public HTTP app. A fresh cache hit of a URL validated before is answered in front of Koa
 * (earlyHit.ts), with the same headers, log line and metrics. Health lives outside the versioned
 * base path for load balancers and spends no rate-limit budget. Everything else: request log →
 * read-model scope → request id → CORS → rate limit → errors → endpoint + query → ETag/304 →
 * cache → resource routes.
 */
export function createApp(deps: AppDependencies): Koa {
  const { config } = deps;
  const clock = deps.clock ?? Date.now;
  const source = deps.readModel ?? new ReadModelSource(deps.db, { maxTimeMS: config.api.queryTimeoutMs });
  const app = new Koa();
  // Errors are logged by the error middleware with the request id; Koa's own print is noise.
  app.silent = true;
  trustProxies(app, config.api.trustedProxyCount);
  // Public, so answered from a recent check: probes at any rate cost the database one check a
  // second. main.ts hands the ops port the same recent check, so both ports share it.
  const readiness = recentReadiness(deps.readiness, { clock });
  app.use(async (ctx, next) => {
    const answer = healthAnswer(ctx.path, readiness);
    if (!answer) {
      await next();
      return;
    }
    const { status, body } = await answer;
    ctx.set('Cache-Control', 'no-store');
    ctx.status = status;
    ctx.body = body;
  });
  app.use(requestLog(deps.logger));
  if (deps.metrics) app.use(httpMetrics(deps.metrics, config.api.basePath));
  app.use(source.scope());
  const front = httpFront({
    logger: deps.logger,
    clock,
    rateLimit: {
      limit: config.api.rateLimitMax,
      windowSeconds: config.api.rateLimitWindowSeconds,
      ...(deps.rateLimitStore ? { store: deps.rateLimitStore } : {}),
    },
    cache: {
      maxBytes: config.api.cacheMaxBytes,
      maxEntryBytes: config.api.cacheEntryMaxBytes,
      getDataVersion: (ctx, listings) => source.currentVersion(ctx, listings),
    },
    work: config.api.work,
    endpoints: { basePath: config.api.basePath },
    // The change feed is answered here, before the ETag and the cache: it is never cached.
    beforeCache: [dataFreshnessHeader(source), changeFeedRoute({ config, feed: new ChangeFeed(deps.db) })],
    early: earlyHitHooks(app, deps.logger, source, deps.metrics),
  });
  for (const middleware of front.middlewares) app.use(middleware);
  if (front.earlyHit) answerHitsFirst(app, front.earlyHit);
  // After the cache: a hit runs no search; a missed search waits for one of the instance's search turns, then answers 503.
  app.use(
    searchGate({
      atOnce: config.api.searchesAtOnce,
      queueLength: config.api.work.queueLength,
      queueTimeoutMs: config.api.work.queueTimeoutMs,
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
    }),
  );
  app.use(resourceRoutes({ config, source, clock }));
  return app;
}
