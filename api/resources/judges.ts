import type { JudgesQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { JUDGE_FIELDS, toJudge } from './personMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `status` is the judge role's own, independent of the same person's dancer record. */
export function judgeListQuery(query: JudgesQuery, format: number): ListingQuery {
  return registryFilter(query, format).addDeclared('judges', query).build('judges', query.sort, query.order);
}

export function listJudges(req: ResourceRequest<JudgesQuery>): StreamedBody {
  return listingPage(req, 'judges', judgeListQuery(req.query, req.view.format), JUDGE_FIELDS, toJudge);
}
