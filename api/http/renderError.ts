import type { Context } from 'koa';
import type { ApiError } from './apiError.ts';
import type { ErrorEnvelope } from '../../schemas/api/errorEnvelope.ts';

/**
 * Writes an ApiError as the envelope `{error: {type, message, details}}` with its status and
 * headers. Errors are never cached and never carry a validator. (Used by `errorMiddleware`
 * and by the rate limiter, which sits outside it.)
 */
export function renderError(ctx: Context, error: ApiError): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  ctx.remove('ETag');
  ctx.remove('X-Cache');
  ctx.remove('Age');
  ctx.remove('Content-Encoding');
  ctx.set('Cache-Control', 'no-store');
  const body: ErrorEnvelope = { error: { type: error.code, message: error.message, details: [...error.details] } };
  ctx.body = body;
}
