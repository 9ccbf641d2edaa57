import type { Static } from '@sinclair/typebox';
import type { CompetitionEnvelope } from '../../schemas/api/envelopes.ts';
import type { NoQuery } from '../../schemas/api/noQuery.ts';
import { COMPETITION_FIELDS, toCompetition } from './competitionMapping.ts';
import { findPublicCompetition } from './findPublicCompetition.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `GET /competitions/{idOrSlug}`: always with categories, entriesCount and startsCount. */
export async function getCompetition(req: ResourceRequest<NoQuery>): Promise<Static<typeof CompetitionEnvelope>> {
  const doc = await findPublicCompetition(req.view, req.params.idOrSlug ?? '', [...COMPETITION_FIELDS, 'categories']);
  return { data: toCompetition(doc, req.today, req.urls, { categories: true, entriesCount: true }) };
}
