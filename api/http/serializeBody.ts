import { Readable } from 'node:stream';
import type { Context } from 'koa';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The response body as bytes, replacing an object body by its JSON so that what is hashed,
 * cached and sent are the same bytes. Streams are left alone (undefined).
 */
export function serializeBody(ctx: Context): Buffer | undefined {
  const body: unknown = ctx.body;
  if (body === undefined || body === null || body instanceof Readable) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Blob || body instanceof ReadableStream || body instanceof Response) return undefined;
  const bytes = Buffer.from(JSON.stringify(body));
  ctx.body = bytes;
  ctx.type = JSON_TYPE;
  return bytes;
}
