import type { CompetitionCategoriesQuery } from '../../schemas/api/competitionCategoriesQuery.ts';
import type { CategoryListEnvelope } from '../../schemas/api/envelopes.ts';
import type { CategoryDocument } from '../../services/readModel/documents.ts';
import { foldSearchText } from '../../services/readModel/index.ts';
import { toCategory } from './competitionMapping.ts';
import { findPublicCompetition } from './findPublicCompetition.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/**
 * The AND-combined category filters. A competition holds tens of categories, all inside its
 * one document, so they are filtered here rather than in the query. `search` is a case- and
 * diacritic-insensitive substring of the name.
 */
export function filterCategories(categories: readonly CategoryDocument[], query: CompetitionCategoriesQuery): CategoryDocument[] {
  const search = query.search === undefined ? undefined : foldSearchText(query.search);
  return categories.filter(
    (c) =>
      (query.entryType === undefined || query.entryType.includes(c.entryType)) &&
      (query.style === undefined || (c.style !== null && query.style.includes(c.style))) &&
      (query.level === undefined || c.level === query.level) &&
      (search === undefined || ([...search].length >= 2 && foldSearchText(c.name).includes(search))),
  );
}

/** `GET /competitions/{idOrSlug}/categories`; 404 when no published competition matches. */
export async function listCategories(req: ResourceRequest<CompetitionCategoriesQuery>): Promise<CategoryListEnvelope> {
  const doc = await findPublicCompetition(req.view, req.params.idOrSlug ?? '', ['id', 'categories']);
  const data = filterCategories(doc.categories ?? [], req.query).map(toCategory);
  return { data, meta: { total: data.length } };
}
