import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { clientIp } from './http/clientIp.ts';
import { requestIp } from './http/answerHitsFirst.ts';
import type { HttpPipelineOptions } from './http/httpPipeline.ts';
import { dataFreshnessLines } from './dataFreshnessHeader.ts';
import { requestMetrics } from './httpMetrics.ts';
import type { ReadModelSource } from './readModelSource.ts';
import { logRequestLine } from './requestLog.ts';

/**
 * What the hit answered before Koa takes from the app (earlyHit.ts): the client's rate-limit key
 * as the pipeline computes it (`ctx.ip` with the app's trusted proxies), X-Data-Current-At from
 * the request's view, and the request log line and metrics the app's middlewares write.
 */
export function earlyHitHooks(
  app: Koa,
  logger: Logger,
  source: ReadModelSource,
  metrics?: Registry,
): NonNullable<HttpPipelineOptions['early']> {
  const record = metrics ? requestMetrics(metrics) : undefined;
  return {
    clientKey: (req) => clientIp(requestIp(app, req)),
    dataHeaders: (req) => dataFreshnessLines(source, req),
    answered: ({ method, path, status, requestId, route, startedAt }) => {
      const ms = performance.now() - startedAt;
      logRequestLine(logger, { method, path, status, ms, cache: 'HIT', requestId });
      record?.({ route, method, status, seconds: ms / 1000, cache: 'HIT' });
    },
  };
}
