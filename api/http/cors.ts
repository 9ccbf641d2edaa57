// @koa/cors ships no types; @types/koa__cors (a dev dependency) gives them to the compiler.
import koaCors from '@koa/cors';
import type { Middleware } from 'koa';

/** Response headers a browser script may read. */
export const EXPOSED_HEADERS = [
  'ETag',
  'X-Cache',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Window',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Data-Current-At',
] as const;

export interface CorsOptions {
  /** How long a browser may reuse a preflight answer; default 86400 seconds. */
  readonly maxAgeSeconds?: number;
}

/**
 * CORS for public data (@koa/cors): any origin, no credentials, GET and HEAD. A preflight is
 * answered here (204, the requested headers allowed) and spends no rate-limit budget; every
 * other response carries the allow-origin and the exposed headers.
 */
export function cors(options: CorsOptions = {}): Middleware {
  return koaCors({
    origin: '*',
    allowMethods: ['GET', 'HEAD'],
    exposeHeaders: [...EXPOSED_HEADERS],
    maxAge: options.maxAgeSeconds ?? 86_400,
  });
}
