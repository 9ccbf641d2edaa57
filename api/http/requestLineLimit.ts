import type { Middleware } from 'koa';
import { ApiError } from './apiError.ts';

/** The longest request line served (method, target and version), in bytes (decisions.md, "Hostile input"). */
export const MAX_REQUEST_LINE_BYTES = 8192;

/** `<method> <target> HTTP/x.y`: the two spaces and the version. */
const LINE_FRAME_BYTES = 10;

/**
 * Answers 414 URI_TOO_LONG when the request line is over MAX_REQUEST_LINE_BYTES, before the URL
 * is routed, parsed or remembered: no text parameter may be longer than 100 characters, so no
 * valid request comes near the bound, and whatever a long URL costs downstream (the resolved-URL
 * memo, the cache key, the log line) stays bounded. Node's parser has cut a whole request head
 * (line and headers) over its `maxHeaderSize` before this runs, with 431.
 */
export function requestLineLimit(): Middleware {
  return async function limitRequestLine(ctx, next) {
    const target = ctx.req.url ?? '';
    if (ctx.method.length + Buffer.byteLength(target) + LINE_FRAME_BYTES > MAX_REQUEST_LINE_BYTES) {
      throw new ApiError('URI_TOO_LONG', `The request line is longer than ${MAX_REQUEST_LINE_BYTES} bytes.`);
    }
    await next();
  };
}
