import type { Middleware } from 'koa';
import type { EndpointName } from '../../schemas/api/endpoints.ts';
import type { QueryByEndpoint } from '../../schemas/api/queryByEndpoint.ts';
import type { Config } from '../../services/config/index.ts';
import { calendarDay } from '../../services/calendar/index.ts';
import { matchedEndpointOf, queryOf } from '../http/index.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import type { ReadModelSource } from '../readModelSource.ts';
import { apiUrls } from './apiUrls.ts';
import { listCategories } from './categories.ts';
import { getClub } from './club.ts';
import { listClubs } from './clubs.ts';
import { listCoaches } from './coaches.ts';
import { getCompetition } from './competition.ts';
import { listCompetitions } from './competitions.ts';
import { competitionsCalendar } from './competitionsCalendar.ts';
import { listCompetitionRemovals } from './competitionRemovals.ts';
import { isMetaEndpoint, metaResources, type MetaEndpoint } from './metaResources.ts';
import { RawBody } from './rawBody.ts';
import { listDancers } from './dancers.ts';
import { competitionFilters } from './filters.ts';
import { listJudges } from './judges.ts';
import { registryFilters } from './registryFilters.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `changes` is answered before the cache by its own middleware (changeFeedRoute), never here. */
type DataEndpoint = Exclude<EndpointName, MetaEndpoint | 'changes'>;
type Handlers = { [E in DataEndpoint]: (req: ResourceRequest<QueryByEndpoint[E]>) => Promise<unknown> | StreamedBody };

/** One handler per endpoint of the catalogue; each returns the response body (a StreamedBody: made piece by piece, sent whole or streamed by size). */
export const RESOURCE_HANDLERS: Handlers = {
  competitions: listCompetitions,
  competitionsCalendar,
  competitionRemovals: listCompetitionRemovals,
  competition: getCompetition,
  competitionCategories: listCategories,
  filters: competitionFilters,
  dancers: listDancers,
  coaches: listCoaches,
  judges: listJudges,
  clubs: listClubs,
  club: getClub,
  registryFilters,
};

export interface ResourceRoutesOptions {
  readonly config: Readonly<Config>;
  readonly source: ReadModelSource;
  /** Milliseconds since the epoch: "today" for `period` and `registrationOpen`. */
  readonly clock: () => number;
}

/**
 * The routes: mount after the HTTP pipeline, which has matched the endpoint and validated the
 * query. Paths the pipeline let through unmatched fall to the next middleware.
 */
export function resourceRoutes(options: ResourceRoutesOptions): Middleware {
  const urls = apiUrls(options.config);
  const meta = metaResources(options.config);
  const zone = options.config.calendar.timeZone;

  async function handle<E extends DataEndpoint>(
    name: E,
    ctx: Parameters<Middleware>[0],
    params: Readonly<Record<string, string>>,
  ): Promise<unknown> {
    const view = await options.source.view(ctx);
    const today = calendarDay(new Date(options.clock()), zone);
    return RESOURCE_HANDLERS[name]({ query: queryOf(ctx, name), params, view, today, urls });
  }

  return async function routeResource(ctx, next) {
    const matched = matchedEndpointOf(ctx);
    if (!matched) {
      await next();
      return;
    }
    const { name } = matched.definition;
    if (name === 'changes') throw new Error('the change feed is answered by changeFeedRoute, before the cache');
    const body = isMetaEndpoint(name) ? meta[name](matched.params) : await handle(name, ctx, matched.params);
    if (body instanceof RawBody) {
      ctx.body = body.bytes;
      ctx.type = body.contentType;
      return;
    }
    const lastModified = detailUpdatedAt(body);
    if (lastModified) ctx.set('Last-Modified', lastModified.toUTCString());
    ctx.body = body;
  };
}

/** A detail body's `data.updatedAt` (lists carry an array): the source of its `Last-Modified`. */
function detailUpdatedAt(body: unknown): Date | undefined {
  if (typeof body !== 'object' || body === null || !('data' in body)) return undefined;
  const { data } = body;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !('updatedAt' in data)) return undefined;
  const { updatedAt } = data;
  if (typeof updatedAt !== 'string') return undefined;
  const instant = new Date(updatedAt);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}
