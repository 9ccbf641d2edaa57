import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from './apiError.ts';
import { toApiError } from './toApiError.ts';
import { renderError } from './renderError.ts';
import { loggerOf, requestIdOf } from './requestState.ts';

export interface ErrorMiddlewareOptions {
  /** Used when the request has no child logger yet. */
  readonly logger?: Logger;
  /** `Retry-After` of a 503; default 5 seconds. */
  readonly retryAfterSeconds?: number;
}

/**
 * The one error path: anything thrown below becomes the error envelope with its status, and
 * a request nothing below answered (Koa's bare 404) becomes the NOT_FOUND envelope.
 */
export function errorMiddleware(options: ErrorMiddlewareOptions = {}): Middleware {
  return async function errorMapping(ctx, next) {
    try {
      await next();
      if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null)) {
        renderError(ctx, new ApiError('NOT_FOUND', 'No resource at this path.'));
      }
    } catch (thrown) {
      const requestId = requestIdOf(ctx);
      const error = toApiError(thrown, { requestId, retryAfterSeconds: options.retryAfterSeconds });
      if (error.status >= 500) {
        const log = loggerOf(ctx) ?? options.logger;
        log?.error({ err: thrown, requestId, type: error.code }, 'request failed');
      }
      renderError(ctx, error);
    }
  };
}
