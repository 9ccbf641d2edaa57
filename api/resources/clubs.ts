import type { Static } from '@sinclair/typebox';
import type { ClubListEnvelope } from '../../schemas/api/envelopes.ts';
import type { ClubsQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { CLUB_FIELDS, toClubListItem } from './clubMapping.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `city`, `country` and `countryId` match any location of the club, branches included. */
export function clubListQuery(query: ClubsQuery, format: number): ListingQuery {
  return registryFilter(query, format).addDeclared('clubs', query).build('clubs', query.sort, query.order);
}

export function listClubs(req: ResourceRequest<ClubsQuery>): Promise<Static<typeof ClubListEnvelope>> {
  return listingPage(req, 'clubs', clubListQuery(req.query, req.view.format), CLUB_FIELDS, toClubListItem);
}
