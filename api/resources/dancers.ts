import type { Static } from '@sinclair/typebox';
import type { DancerListEnvelope } from '../../schemas/api/envelopes.ts';
import type { DancersQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { DANCER_FIELDS, toDancer } from './personMapping.ts';
import { pageEnvelope } from './pagination.ts';
import { projectionOf } from './projection.ts';
import { readPage } from './readPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `clubId` and `coachId` match open links only (`q.clubIds`/`q.coachIds`); `status` is the dancer role's. */
export function dancerListQuery(query: DancersQuery): ListingQuery {
  return registryFilter(query).addDeclared('dancers', query).build('dancers', query.sort, query.order);
}

export async function listDancers(req: ResourceRequest<DancersQuery>): Promise<Static<typeof DancerListEnvelope>> {
  const { query } = req;
  const { docs, total } = await readPage(req.view.collection('dancers'), dancerListQuery(query), {
    projection: projectionOf(DANCER_FIELDS),
    page: query.page,
    limit: query.limit,
    maxTimeMS: req.view.maxTimeMS,
  });
  return pageEnvelope(
    req.urls,
    '/dancers',
    query,
    docs.map((doc) => toDancer(doc as Parameters<typeof toDancer>[0])),
    total,
  );
}
