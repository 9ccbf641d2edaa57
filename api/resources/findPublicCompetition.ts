import { ApiError } from '../http/index.ts';
import { SLUG_INDEX_NAME } from '../../services/readModel/indexPlan.ts';
import type { ReadModelView } from '../readModelSource.ts';
import type { StoredCompetition } from './competitionMapping.ts';
import { idFilter } from './idFilter.ts';
import { projectionOf } from './projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The published competition with this id or slug, or a 404. An id is looked up with exactly
 * `{_id}` (the primary key) and its visibility
 * checked here; a slug through the slug index. Drafts, unpublished and deleted competitions
 * are never found.
 */
export async function findPublicCompetition(view: ReadModelView, idOrSlug: string, fields: readonly string[]): Promise<StoredCompetition> {
  const competitions = view.collection('competitions');
  const projection = projectionOf([...fields, 'visible']);
  if (UUID.test(idOrSlug)) {
    const byId = await competitions.findOne(idFilter(idOrSlug), { projection, maxTimeMS: view.maxTimeMS });
    if (byId?.visible === true) return byId as unknown as StoredCompetition;
  }
  const [bySlug] = await competitions
    .find({ slug: idOrSlug, visible: true }, { projection, hint: SLUG_INDEX_NAME, sort: { _id: 1 }, limit: 1, maxTimeMS: view.maxTimeMS })
    .toArray();
  if (bySlug) return bySlug as unknown as StoredCompetition;
  throw new ApiError('NOT_FOUND', 'No published competition has this id or slug.');
}
