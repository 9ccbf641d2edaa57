import type { Static } from '@sinclair/typebox';
import type { CoachListEnvelope } from '../../schemas/api/envelopes.ts';
import type { CoachesQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { COACH_FIELDS, toCoach } from './personMapping.ts';
import { pageEnvelope } from './pagination.ts';
import { projectionOf } from './projection.ts';
import { readPage } from './readPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** Buffer coaches are stored with `registryState: 'BUFFER'`, which no request can ask for. */
export function coachListQuery(query: CoachesQuery): ListingQuery {
  return registryFilter(query).addDeclared('coaches', query).build('coaches', query.sort, query.order);
}

export async function listCoaches(req: ResourceRequest<CoachesQuery>): Promise<Static<typeof CoachListEnvelope>> {
  const { query } = req;
  const { docs, total } = await readPage(req.view.collection('coaches'), coachListQuery(query), {
    projection: projectionOf(COACH_FIELDS),
    page: query.page,
    limit: query.limit,
    maxTimeMS: req.view.maxTimeMS,
  });
  return pageEnvelope(
    req.urls,
    '/coaches',
    query,
    docs.map((doc) => toCoach(doc as Parameters<typeof toCoach>[0])),
    total,
  );
}
