import type { Context } from 'koa';
import type { EndpointDefinition, EndpointName } from '../../schemas/api/endpoints.ts';
import type { CachedBody } from './bodyCache.ts';
import { preferredCoding, type ContentCoding } from './contentCoding.ts';
import { hitAnswer } from './hitAnswer.ts';

export type CacheOutcome = 'HIT' | 'MISS' | 'BYPASS';

/** `Cache-Control` of an endpoint's cached answers: its catalogue TTL unless overridden. */
export function cacheControlOf(definition: EndpointDefinition, ttlSeconds?: Partial<Record<EndpointName, number>>): string {
  return `public, max-age=${ttlOf(definition, ttlSeconds)}`;
}

export function ttlOf(definition: EndpointDefinition, ttlSeconds?: Partial<Record<EndpointName, number>>): number {
  return ttlSeconds?.[definition.name] ?? definition.ttlSeconds;
}

/** A stored answer as the response, as hitAnswer makes it (the one way a hit is replayed). */
export function replayHit(ctx: Context, hit: CachedBody, now: number, cacheControl: string, status: 200 | 304 = 200): void {
  const answer = hitAnswer(hit, now, cacheControl, status, ctx.get('Accept-Encoding'));
  ctx.status = answer.status;
  for (const [name, value] of answer.headers) {
    if (name === 'Vary') ctx.vary(value);
    else ctx.set(name, value);
  }
  // Koa keeps the type and length set above (the same values) and sends these bytes.
  if (answer.body) ctx.body = answer.body;
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
