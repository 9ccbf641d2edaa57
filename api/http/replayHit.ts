import type { Context } from 'koa';
import type { EndpointDefinition, EndpointName } from '../../schemas/api/endpoints.ts';
import type { CachedBody } from './bodyCache.ts';
import { JSON_TYPE } from './serializeBody.ts';

export type CacheOutcome = 'HIT' | 'MISS' | 'BYPASS';

/** `Cache-Control` of an endpoint's cached answers: its catalogue TTL unless overridden. */
export function cacheControlOf(definition: EndpointDefinition, ttlSeconds?: Partial<Record<EndpointName, number>>): string {
  return `public, max-age=${ttlOf(definition, ttlSeconds)}`;
}

export function ttlOf(definition: EndpointDefinition, ttlSeconds?: Partial<Record<EndpointName, number>>): number {
  return ttlSeconds?.[definition.name] ?? definition.ttlSeconds;
}

/**
 * A stored answer as the response: its bytes and type, its validators, its `Age` at `now`, X-Cache
 * HIT. As a 304 it skips the body (which the status would drop again): the same headers remain.
 */
export function replayHit(ctx: Context, hit: CachedBody, now: number, cacheControl: string, status: 200 | 304 = 200): void {
  ctx.status = status;
  if (status === 200) {
    ctx.type = hit.contentType ?? JSON_TYPE;
    ctx.body = hit.body;
  }
  ctx.set('ETag', hit.etag);
  if (hit.lastModified) ctx.set('Last-Modified', hit.lastModified);
  ctx.set('Age', String(Math.max(0, Math.floor((now - hit.storedAtMs) / 1000))));
  markResponse(ctx, 'HIT', cacheControl);
}

export function markResponse(ctx: Context, state: CacheOutcome, cacheControl: string): void {
  ctx.set('X-Cache', state);
  ctx.set('Cache-Control', cacheControl);
}
