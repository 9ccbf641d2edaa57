import type { CompetitionRemovalListEnvelope, CompetitionRemovalsQuery } from '../../schemas/api/competitionRemovals.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import { REMOVALS_INDEX_NAME } from '../../services/readModel/indexPlan.ts';
import { pageLinks, pageMeta, pageSkip } from './pagination.ts';
import { findFields } from './projection.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/**
 * Competitions out of public view since `updatedSince`. `removal` is set only while a
 * competition that was public is not (projector/evolve/competitionRemoval.ts), so the range on
 * `removal.at` alone selects them; a string bound also leaves the null removals out, as
 * MongoDB compares only values of one type. Served by the `competitions_removals` index in its
 * own order (`removal.at`, then `_id`).
 */
export function removalsFilter(updatedSince: string | undefined): { 'removal.at': { $gte: string } } {
  return { 'removal.at': { $gte: updatedSince === undefined ? '' : canonicalInstant(updatedSince) } };
}

export async function listCompetitionRemovals(req: ResourceRequest<CompetitionRemovalsQuery>): Promise<CompetitionRemovalListEnvelope> {
  const { query } = req;
  const collection = req.view.collection('competitions');
  const filter = removalsFilter(query.updatedSince);
  const skip = pageSkip(query.page, query.limit);
  const count = req.view.count('competitions', filter);
  const find =
    skip === null
      ? Promise.resolve([])
      : findFields(collection, filter, ['id', 'slug', 'removal'], {
          hint: REMOVALS_INDEX_NAME,
          maxTimeMS: req.view.maxTimeMS,
          sort: { 'removal.at': 1, _id: 1 },
          skip,
          limit: query.limit,
        }).toArray();
  const [docs, total] = await Promise.all([find, count]);
  const meta = pageMeta(query.page, query.limit, total);
  return {
    data: docs.map(({ id, slug, removal }) => {
      // The filter's range on `removal.at` matches no null removal.
      if (removal === null) throw new Error(`competition ${id} matched the removals filter without a removal`);
      return { id, slug, removedAt: removal.at, reason: removal.reason };
    }),
    meta,
    links: pageLinks(req.urls, '/competitions/removals', query, meta),
  };
}
