import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { requestIdOf } from './http/index.ts';

/**
 * One log line per request, written when the response is final (errors, 304s and 429s
 * included): method, path, status, milliseconds, cache outcome and request id. Mount it first:
 * it reads what the inner middlewares leave behind.
 */
export function requestLog(logger: Logger, clock: () => number = performance.now.bind(performance)): Middleware {
  return async function logRequest(ctx, next) {
    const started = clock();
    try {
      await next();
    } finally {
      const cache: unknown = ctx.response.get('X-Cache');
      logger.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((clock() - started) * 10) / 10,
          cache: typeof cache === 'string' && cache !== '' ? cache : null,
          requestId: requestIdOf(ctx),
        },
        'request',
      );
    }
  };
}
