import type { ClubsQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { CLUB_FIELDS, toClubListItem } from './clubMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `city`, `country` and `countryId` match any location of the club, branches included. */
export function clubListQuery(query: ClubsQuery, format: number): ListingQuery {
  return registryFilter(query, format).addDeclared('clubs', query).build('clubs', query.sort, query.order);
}

export function listClubs(req: ResourceRequest<ClubsQuery>): StreamedBody {
  return listingPage(req, 'clubs', clubListQuery(req.query, req.view.format), CLUB_FIELDS, toClubListItem);
}
