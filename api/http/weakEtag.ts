import { createHash } from 'node:crypto';

/** `W/"<sha-256 of the body bytes, base64url>"` */
export function weakEtag(body: Uint8Array): string {
  return `W/"${createHash('sha256').update(body).digest('base64url')}"`;
}

/**
 * Whether an `If-None-Match` header matches the current ETag under the weak comparison
 * (RFC 9110 §13.1.2): `*`, or any listed tag equal once the `W/` prefix is ignored.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.trim() === '') return false;
  if (header.trim() === '*') return true;
  const current = opaque(etag);
  const listed = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return listed.some((tag) => opaque(tag) === current);
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}
