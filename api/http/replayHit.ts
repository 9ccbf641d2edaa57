import type { Context } from 'koa';
import type { EndpointDefinition, EndpointName } from '../../schemas/api/endpoints.ts';
import type { CachedBody } from './bodyCache.ts';
import { preferredCoding, type ContentCoding } from './contentCoding.ts';
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
 * A stored answer as the response: its bytes and type (in the coding the client prefers, when
 * the entry has codings), its validators, its `Age` at `now`, X-Cache HIT. As a 304 it skips
 * the body (which the status would drop again): the same headers remain.
 */
export function replayHit(ctx: Context, hit: CachedBody, now: number, cacheControl: string, status: 200 | 304 = 200): void {
  ctx.status = status;
  if (status === 200) {
    ctx.type = hit.contentType ?? JSON_TYPE;
    sendBody(ctx, hit.body, hit.encoded);
  } else if (hit.encoded) {
    ctx.vary('Accept-Encoding');
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

/**
 * Sets `body` as the response in the coding the request prefers among `encoded` (with
 * Content-Encoding), or plain; `Vary: Accept-Encoding` whenever codings exist, since the choice
 * then depends on the header. Weak validators stay the same across codings (RFC 9110 §8.8.1).
 */
export function sendBody(ctx: Context, body: Buffer, encoded: Readonly<Partial<Record<ContentCoding, Buffer>>> | undefined): void {
  if (!encoded) {
    ctx.body = body;
    return;
  }
  ctx.vary('Accept-Encoding');
  const coding = preferredCoding(ctx.get('Accept-Encoding'));
  const variant = coding === undefined ? undefined : encoded[coding];
  if (coding === undefined || variant === undefined) {
    ctx.body = body;
    return;
  }
  ctx.body = variant;
  ctx.set('Content-Encoding', coding);
}
