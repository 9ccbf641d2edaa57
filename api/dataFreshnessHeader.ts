import type { Middleware } from 'koa';
import { matchedEndpointOf } from './http/index.ts';
import type { ReadModelSource } from './readModelSource.ts';

export const DATA_CURRENT_AT_HEADER = 'X-Data-Current-At';

/**
 * Tells a client how fresh a data response is: `X-Data-Current-At` is the instant up to which
 * the read model served is known current (every event the topic held then is applied), from
 * the same meta read as the request's data version, so it is never newer than the data. Set
 * before the cache and the conditional GET, so hits and 304s carry it too; absent until a
 * projector has recorded one.
 */
export function dataFreshnessHeader(source: ReadModelSource): Middleware {
  return async function currentAtHeader(ctx, next) {
    const matched = matchedEndpointOf(ctx);
    if (matched && matched.definition.listings.length > 0) {
      const view = source.viewNow(ctx);
      const { currentAt } = view instanceof Promise ? await view : view;
      if (currentAt) ctx.set(DATA_CURRENT_AT_HEADER, currentAt.toISOString());
    }
    await next();
  };
}

/** The same header as lines, for a hit answered before Koa (earlyHit.ts), from the view of `request`. */
export function dataFreshnessLines(
  source: ReadModelSource,
  request: object,
): ReadonlyArray<readonly [string, string]> | Promise<ReadonlyArray<readonly [string, string]>> {
  const lines = ({ currentAt }: { currentAt: Date | null }): ReadonlyArray<readonly [string, string]> =>
    currentAt ? [[DATA_CURRENT_AT_HEADER, currentAt.toISOString()]] : [];
  const view = source.viewNow(request);
  return view instanceof Promise ? view.then(lines) : lines(view);
}
