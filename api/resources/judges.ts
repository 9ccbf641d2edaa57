import type { Static } from '@sinclair/typebox';
import type { JudgeListEnvelope } from '../../schemas/api/envelopes.ts';
import type { JudgesQuery } from '../../schemas/api/registryQueries.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { JUDGE_FIELDS, toJudge } from './personMapping.ts';
import { pageEnvelope } from './pagination.ts';
import { projectionOf } from './projection.ts';
import { readPage } from './readPage.ts';
import { registryFilter } from './registryListQuery.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `status` is the judge role's own, independent of the same person's dancer record. */
export function judgeListQuery(query: JudgesQuery): ListingQuery {
  return registryFilter(query).addDeclared('judges', query).build('judges', query.sort, query.order);
}

export async function listJudges(req: ResourceRequest<JudgesQuery>): Promise<Static<typeof JudgeListEnvelope>> {
  const { query } = req;
  const { docs, total } = await readPage(req.view.collection('judges'), judgeListQuery(query), {
    projection: projectionOf(JUDGE_FIELDS),
    page: query.page,
    limit: query.limit,
    maxTimeMS: req.view.maxTimeMS,
  });
  return pageEnvelope(
    req.urls,
    '/judges',
    query,
    docs.map((doc) => toJudge(doc as Parameters<typeof toJudge>[0])),
    total,
  );
}
