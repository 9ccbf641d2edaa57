import type { Context, Middleware } from 'koa';
import { matchedEndpointOf } from './requestState.ts';

/**
 * Sets an endpoint's own `responseHeaders` (the catalogue's; the reference page's
 * Content-Security-Policy) on its 200s and 304s. Here, around the cache, rather than in the
 * route: a cache hit never reaches the route. Errors keep the envelope's headers only.
 */
export function endpointHeaders(): Middleware {
  return async function endpointHeadersAround(ctx, next) {
    await next();
    setEndpointHeaders(ctx);
  };
}

/** What `endpointHeaders` does once the response is made. */
export function setEndpointHeaders(ctx: Context): void {
  const headers = matchedEndpointOf(ctx)?.definition.responseHeaders;
  if (!headers || (ctx.status !== 200 && ctx.status !== 304)) return;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
}
