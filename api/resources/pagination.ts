import type { PageLinks, PageMeta } from '../../schemas/api/envelopes.ts';
import type { ApiUrls, QueryValues } from './apiUrls.ts';

/** Past this many skipped documents a page cannot hold data on any realistic collection. */
const MAX_SKIP = 2 ** 31 - 1;

/** Documents to skip for a page, or null when the page lies beyond any collection. */
export function pageSkip(page: number, limit: number): number | null {
  const skip = (page - 1) * limit;
  return Number.isSafeInteger(skip) && skip <= MAX_SKIP ? skip : null;
}

export function pageMeta(page: number, limit: number, total: number): PageMeta {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNextPage: page < totalPages, hasPreviousPage: page > 1 };
}

/**
 * Ready-made page URLs. `previous` of a page past the end points at the last page that holds
 * data (page 1 of an empty list), so following it always lands on a page with content.
 */
export function pageLinks(urls: ApiUrls, path: string, query: QueryValues, meta: PageMeta): PageLinks {
  const at = (page: number): string => urls.api(path, { ...query, page });
  return {
    self: urls.api(path, query),
    next: meta.hasNextPage ? at(meta.page + 1) : null,
    previous: meta.hasPreviousPage ? at(Math.min(meta.page - 1, Math.max(meta.totalPages, 1))) : null,
  };
}

/** A parsed listing query: the page asked for, and every other value the links repeat. */
export interface PageQuery extends QueryValues {
  readonly page: number;
  readonly limit: number;
}

/** One page of the listing at `path` (e.g. `/dancers`) in its envelope: items, `meta`, and `links` built from them. */
export function pageEnvelope<T>(
  urls: ApiUrls,
  path: string,
  query: PageQuery,
  data: T[],
  total: number,
): { data: T[]; meta: PageMeta; links: PageLinks } {
  const meta = pageMeta(query.page, query.limit, total);
  return { data, meta, links: pageLinks(urls, path, query, meta) };
}
