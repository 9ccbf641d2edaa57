import type { Static } from '@sinclair/typebox';
import type { ClubListEnvelope } from '../../schemas/api/envelopes.ts';
import type { ClubsQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { CLUB_FIELDS, toClubListItem } from './clubMapping.ts';
import { pageEnvelope } from './pagination.ts';
import { projectionOf } from './projection.ts';
import { readPage } from './readPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `city`, `country` and `countryId` match any location of the club, branches included. */
export function clubListQuery(query: ClubsQuery): ListingQuery {
  return registryFilter(query).addDeclared('clubs', query).build('clubs', query.sort, query.order);
}

export async function listClubs(req: ResourceRequest<ClubsQuery>): Promise<Static<typeof ClubListEnvelope>> {
  const { query } = req;
  const { docs, total } = await readPage(req.view.collection('clubs'), clubListQuery(query), {
    projection: projectionOf(CLUB_FIELDS),
    page: query.page,
    limit: query.limit,
    maxTimeMS: req.view.maxTimeMS,
  });
  return pageEnvelope(
    req.urls,
    '/clubs',
    query,
    docs.map((doc) => toClubListItem(doc as Parameters<typeof toClubListItem>[0])),
    total,
  );
}
