import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import { servedLayout } from './servedLayout.ts';
import type { CoachesQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { COACH_FIELDS, toCoach } from './personMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** Buffer coaches are stored with `registryState: 'BUFFER'`, which no request can ask for. */
export function coachListQuery(query: CoachesQuery, layout: ReadModelLayout): ListingQuery {
  return registryFilter(query, layout).addDeclared('coaches', query).build('coaches', query.sort, query.order);
}

export function listCoaches(req: ResourceRequest<CoachesQuery>): StreamedBody {
  return listingPage(req, 'coaches', coachListQuery(req.query, servedLayout(req.view)), COACH_FIELDS, toCoach);
}
