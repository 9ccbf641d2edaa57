import type { Middleware } from 'koa';
import { Counter, type Registry } from 'prom-client';
import type { EndpointName } from '../schemas/api/endpoints.ts';
import { apiState } from './http/requestState.ts';
import { clientIp } from './http/clientIp.ts';
import { WorkGate } from './http/workGate.ts';

/**
 * What uncached searches may cost one API instance (decisions.md, "Hostile input"). A search is
 * the one query whose database work grows with the stored text, not with the page: the regular
 * expression runs over the search text of every document the index narrows to, and the count
 * runs it again. Every uncached answer already waits for one of the instance's work slots
 * (API_WORK_CONCURRENCY, its queue and its 503); of those slots at most `atOnce` run a search
 * (config API_SEARCHES_AT_ONCE). A search that finds them taken waits in a queue as long and as
 * patient as the work slots' own (API_WORK_QUEUE_LENGTH, API_WORK_QUEUE_TIMEOUT_MS), then answers
 * 503 with `Retry-After`: a client's burst of searches is served in turn, not refused at once.
 * A waiting search holds its work slot, so searches take at most all the slots, never more than
 * any other uncached work could; distinct searches from any number of addresses cost the
 * database at most `atOnce` scans at a time, each within the query time limit.
 */
export const SEARCH_BUDGET = { atOnce: 2, retryAfterSeconds: 1 } as const;

/**
 * Endpoints whose `search` is a database clause (LISTING_FILTERS, `match: 'search'`). The
 * categories of one competition are searched in process, in the one document already read.
 */
const SEARCHED_IN_DATABASE: ReadonlySet<EndpointName> = new Set<EndpointName>([
  'competitions',
  'competitionsCalendar',
  'dancers',
  'coaches',
  'judges',
  'clubs',
]);

/** Whether the request (matched and validated) carries a `search` the database runs. */
export function isDatabaseSearch(ctx: Parameters<Middleware>[0]): boolean {
  const state = apiState(ctx);
  const endpoint = state.endpoint?.definition.name;
  const search = (state.query as { search?: unknown } | undefined)?.search;
  return endpoint !== undefined && search !== undefined && SEARCHED_IN_DATABASE.has(endpoint);
}

export interface SearchGateOptions {
  readonly atOnce?: number;
  /** Searches that may wait for a turn (default none: refused at once). */
  readonly queueLength?: number;
  readonly queueTimeoutMs?: number;
  readonly metrics?: Registry;
}

/**
 * Runs the route of an uncached request that carries `search` within one of SEARCH_BUDGET's
 * turns. Mount after the response cache (a hit costs no search) and before the routes.
 */
export function searchGate(options: SearchGateOptions = {}): Middleware {
  const turns = new WorkGate({
    concurrency: options.atOnce ?? SEARCH_BUDGET.atOnce,
    queueLength: options.queueLength ?? 0,
    queueTimeoutMs: options.queueTimeoutMs ?? 0,
    retryAfterSeconds: SEARCH_BUDGET.retryAfterSeconds,
  });
  const refused = options.metrics
    ? new Counter({
        name: 'api_searches_refused_total',
        help: 'Uncached searches answered 503 because API_SEARCHES_AT_ONCE of them ran and the queue for a turn was full or waited too long',
        registers: [options.metrics],
      })
    : undefined;
  return async (ctx, next) => {
    if (!isDatabaseSearch(ctx)) {
      await next();
      return;
    }
    let release: () => void;
    try {
      release = await turns.acquire(clientIp(ctx.ip));
    } catch (refusal) {
      refused?.inc();
      throw refusal;
    }
    try {
      await next();
    } finally {
      release();
    }
  };
}
