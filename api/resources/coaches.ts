import type { CoachesQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { COACH_FIELDS, toCoach } from './personMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** Buffer coaches are stored with `registryState: 'BUFFER'`, which no request can ask for. */
export function coachListQuery(query: CoachesQuery, format: number): ListingQuery {
  return registryFilter(query, format).addDeclared('coaches', query).build('coaches', query.sort, query.order);
}

export function listCoaches(req: ResourceRequest<CoachesQuery>): StreamedBody {
  return listingPage(req, 'coaches', coachListQuery(req.query, req.view.format), COACH_FIELDS, toCoach);
}
