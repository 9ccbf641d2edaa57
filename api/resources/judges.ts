import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import { servedLayout } from './servedLayout.ts';
import type { JudgesQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { JUDGE_FIELDS, toJudge } from './personMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `status` is the judge role's own, independent of the same person's dancer record. */
export function judgeListQuery(query: JudgesQuery, layout: ReadModelLayout): ListingQuery {
  return registryFilter(query, layout).addDeclared('judges', query).build('judges', query.sort, query.order);
}

export function listJudges(req: ResourceRequest<JudgesQuery>): StreamedBody {
  return listingPage(req, 'judges', judgeListQuery(req.query, servedLayout(req.view)), JUDGE_FIELDS, toJudge);
}
