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
      logRequestLine(logger, {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: clock() - started,
        cache: typeof cache === 'string' && cache !== '' ? cache : null,
        requestId: requestIdOf(ctx),
      });
    }
  };
}

/** The request log line (also written for a hit answered before Koa: earlyHit.ts). */
export function logRequestLine(
  logger: Logger,
  line: { method: string; path: string; status: number; ms: number; cache: string | null; requestId: string },
): void {
  logger.info({ ...line, ms: Math.round(line.ms * 10) / 10 }, 'request');
}
