import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import { servedLayout } from './servedLayout.ts';
import type { ClubsQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { CLUB_FIELDS, toClubListItem } from './clubMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `city`, `country` and `countryId` match any location of the club, branches included. */
export function clubListQuery(query: ClubsQuery, layout: ReadModelLayout): ListingQuery {
  return registryFilter(query, layout).addDeclared('clubs', query).build('clubs', query.sort, query.order);
}

export function listClubs(req: ResourceRequest<ClubsQuery>): StreamedBody {
  return listingPage(req, 'clubs', clubListQuery(req.query, servedLayout(req.view)), CLUB_FIELDS, toClubListItem);
}
