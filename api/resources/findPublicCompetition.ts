import { ApiError } from '../http/index.ts';
import type { DocumentPath } from '../../services/readModel/documentPath.ts';
import type { CompetitionDocument } from '../../services/readModel/documents.ts';
import { SLUG_INDEX_NAME } from '../../services/readModel/indexPlan.ts';
import type { ReadModelView } from '../readModelSource.ts';
import { findFields, findOneFields, type Projected } from './projection.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The published competition with this id or slug, or a 404. An id is looked up with exactly
 * `{_id}` (the primary key) and its visibility
 * checked here; a slug through the slug index. Drafts, unpublished and deleted competitions
 * are never found.
 */
export async function findPublicCompetition<P extends DocumentPath<CompetitionDocument>>(
  view: ReadModelView,
  idOrSlug: string,
  fields: readonly P[],
): Promise<Projected<CompetitionDocument, P | 'visible'>> {
  const competitions = view.collection('competitions');
  const read = [...fields, 'visible' as const];
  if (UUID.test(idOrSlug)) {
    const byId = await findOneFields(competitions, { _id: idOrSlug }, read, { maxTimeMS: view.maxTimeMS });
    if (byId?.visible === true) return byId;
  }
  const [bySlug] = await findFields(competitions, { slug: idOrSlug, visible: true }, read, {
    hint: SLUG_INDEX_NAME,
    sort: { _id: 1 },
    limit: 1,
    maxTimeMS: view.maxTimeMS,
  }).toArray();
  if (bySlug) return bySlug;
  throw new ApiError('NOT_FOUND', 'No published competition has this id or slug.');
}
