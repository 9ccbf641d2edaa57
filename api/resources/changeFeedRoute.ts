import type { Middleware } from 'koa';
import type { ChangesQuery } from '../../schemas/api/changes.ts';
import type { Config } from '../../services/config/index.ts';
import { ApiError, clientIp, matchedEndpointOf, queryOf } from '../http/index.ts';
import { apiUrls } from './apiUrls.ts';
import type { ChangeFeed } from './changeFeed.ts';
import { changesPage } from './changesPage.ts';
import { serveChangeStream } from './changesStream.ts';

export interface ChangeFeedRouteOptions {
  readonly config: Readonly<Config>;
  readonly feed: ChangeFeed;
}

/**
 * Answers `/changes` before the cache (it is never cached): a JSON page (with its long poll), or
 * a Server-Sent Events stream when `Accept` names `text/event-stream`. The pipeline before it has
 * spent the request's rate-limit budget and validated its query; a stream also takes one of
 * the client's stream slots on this instance, or answers 429.
 */
export function changeFeedRoute(options: ChangeFeedRouteOptions): Middleware {
  const urls = apiUrls(options.config);
  const { streamsPerClient, streamBufferBytes } = options.config.changes;
  const streams = new Map<string, number>();

  return async function routeChanges(ctx, next) {
    const matched = matchedEndpointOf(ctx);
    if (matched?.definition.name !== 'changes') {
      await next();
      return;
    }
    const query: ChangesQuery = queryOf(ctx, 'changes');
    ctx.set('Cache-Control', 'no-store');
    ctx.remove('ETag');
    if (ctx.method !== 'GET' || !ctx.get('Accept').includes('text/event-stream')) {
      let closed = false;
      ctx.req.once('close', () => (closed = true));
      ctx.body = await changesPage(options.feed, query, urls, () => closed);
      return;
    }
    const client = clientIp(ctx.ip);
    const open = streams.get(client) ?? 0;
    if (open >= streamsPerClient) {
      throw new ApiError('RATE_LIMIT_EXCEEDED', `At most ${streamsPerClient} change streams per client at once; close one first.`, {
        headers: { 'Retry-After': '5' },
      });
    }
    streams.set(client, open + 1);
    try {
      const lastEventId = ctx.get('Last-Event-ID') || undefined;
      ctx.respond = false;
      await serveChangeStream(ctx.res, query, lastEventId, { feed: options.feed, urls, bufferBytes: streamBufferBytes });
    } catch (error) {
      ctx.respond = true;
      throw error;
    } finally {
      const left = (streams.get(client) ?? 1) - 1;
      if (left === 0) streams.delete(client);
      else streams.set(client, left);
    }
  };
}
