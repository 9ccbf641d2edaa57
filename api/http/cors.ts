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

const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

export interface CorsOptions {
  /** How long a browser may reuse a preflight answer; default 86400 seconds. */
  readonly maxAgeSeconds?: number;
}

/**
 * CORS for public data: any origin, no credentials. A preflight is answered here (204) and
 * spends no rate-limit budget; every other response carries the allow-origin and the
 * exposed headers.
 */
export function cors(options: CorsOptions = {}): Middleware {
  const maxAge = String(options.maxAgeSeconds ?? 86_400);
  const exposed = EXPOSED_HEADERS.join(', ');
  return async function corsHeaders(ctx, next) {
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS' && ctx.get('Origin') !== '' && ctx.get('Access-Control-Request-Method') !== '') {
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD');
      const requested = ctx.get('Access-Control-Request-Headers').trim();
      if (HEADER_LIST.test(requested)) ctx.set('Access-Control-Allow-Headers', requested);
      ctx.set('Access-Control-Max-Age', maxAge);
      ctx.vary('Access-Control-Request-Headers');
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', exposed);
    await next();
  };
}
