import type { CachedBody } from './bodyCache.ts';
import { preferredCoding } from './contentCoding.ts';
import { JSON_TYPE } from './serializeBody.ts';

/** The part of a cache hit's response the cache decides: status, headers in their order, body. */
export interface HitAnswer {
  readonly status: 200 | 304;
  /** Header lines in the order they are set; `Vary` is a value to add to the response's Vary. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The bytes to send (none on a 304). */
  readonly body?: Buffer;
}

/**
 * The one way a stored answer is replayed, used by the hit answered before Koa (earlyHit.ts) and
 * by the response cache inside it: type and length of the bytes in the coding `acceptEncoding`
 * prefers (with Content-Encoding), `Vary: Accept-Encoding` when the entry has codings, the stored
 * validators, `Age` at `now`, X-Cache HIT and `cacheControl`. A 304 has the same headers but the
 * body's own (type, length, coding).
 */
export function hitAnswer(
  hit: CachedBody,
  now: number,
  cacheControl: string,
  status: 200 | 304,
  acceptEncoding: string | undefined,
): HitAnswer {
  const headers: Array<readonly [string, string]> = [];
  let body: Buffer | undefined;
  if (status === 200) {
    const coding = hit.encoded ? preferredCoding(acceptEncoding) : undefined;
    const variant = coding === undefined ? undefined : hit.encoded?.[coding];
    body = variant ?? hit.body;
    headers.push(['Content-Type', hit.contentType ?? JSON_TYPE], ['Content-Length', String(body.length)]);
    if (variant && coding) headers.push(['Content-Encoding', coding]);
  }
  if (hit.encoded) headers.push(['Vary', 'Accept-Encoding']);
  headers.push(['ETag', hit.etag]);
  if (hit.lastModified) headers.push(['Last-Modified', hit.lastModified]);
  headers.push(
    ['Age', String(Math.max(0, Math.floor((now - hit.storedAtMs) / 1000)))],
    ['X-Cache', 'HIT'],
    ['Cache-Control', cacheControl],
  );
  return body ? { status, headers, body } : { status, headers };
}
