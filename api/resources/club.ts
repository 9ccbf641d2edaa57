import { servedLayout } from './servedLayout.ts';
import type { Static } from '@sinclair/typebox';
import type { ClubEnvelope } from '../../schemas/api/envelopes.ts';
import type { NoQuery } from '../../schemas/api/noQuery.ts';
import type { Coach } from '../../schemas/api/registryPeople.ts';
import { ApiError } from '../http/index.ts';
import type { ReadModelView } from '../readModelSource.ts';
import { CLUB_DETAIL_FIELDS, toClubDetail } from './clubMapping.ts';
import { coachListQuery } from './coaches.ts';
import { COACH_FIELDS, toCoach } from './personMapping.ts';
import { findFields, findOneFields } from './projection.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** Current staff: listed coaches with an open link to the club, by surname (`q.nameKey`, then id). */
async function clubCoaches(view: ReadModelView, clubId: string): Promise<Coach[]> {
  const { filter, plan } = coachListQuery(
    { registryState: ['REGISTRY'], clubId, sort: 'name', order: 'asc', page: 1, limit: 100 },
    servedLayout(view),
  );
  const docs = await findFields(view.collection('coaches'), filter, COACH_FIELDS, {
    sort: { ...plan.sort },
    hint: plan.index.name,
    maxTimeMS: view.maxTimeMS,
  }).toArray();
  return docs.map(toCoach);
}

/**
 * `GET /clubs/{id}`: looked up with exactly `{_id}` (the primary key). Archived
 * clubs are returned; the buffer and GONE tombstones answer 404 like an unknown id.
 */
export async function getClub(req: ResourceRequest<NoQuery>): Promise<Static<typeof ClubEnvelope>> {
  const id = req.params.id ?? '';
  const [club, coaches] = await Promise.all([
    findOneFields(req.view.collection('clubs'), { _id: id }, CLUB_DETAIL_FIELDS, { maxTimeMS: req.view.maxTimeMS }),
    clubCoaches(req.view, id),
  ]);
  if (!club || (club.registryState !== 'REGISTRY' && club.registryState !== 'ARCHIVE')) {
    throw new ApiError('NOT_FOUND', 'No club has this id.');
  }
  return { data: toClubDetail(club, coaches, req.urls) };
}
