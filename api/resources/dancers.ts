import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import { servedLayout } from './servedLayout.ts';
import type { DancersQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { DANCER_FIELDS, toDancer } from './personMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `clubId` and `coachId` match open links only (`q.clubIds`/`q.coachIds`); `status` is the dancer role's. */
export function dancerListQuery(query: DancersQuery, layout: ReadModelLayout): ListingQuery {
  return registryFilter(query, layout).addDeclared('dancers', query).build('dancers', query.sort, query.order);
}

export function listDancers(req: ResourceRequest<DancersQuery>): StreamedBody {
  return listingPage(req, 'dancers', dancerListQuery(req.query, servedLayout(req.view)), DANCER_FIELDS, toDancer);
}
