import { Type } from '@sinclair/typebox';
import { ClubDetail, ClubListItem } from '../../schemas/api/club.ts';
import type { Coach } from '../../schemas/api/registryPeople.ts';
import type { ClubDocument } from '../../services/readModel/documents.ts';
import { segment, type ApiUrls } from './apiUrls.ts';
import type { Projected } from './projection.ts';
import { fieldsOf, recordOf } from './schemaRecord.ts';

/** The detail as stored: its `coaches` and `links` are added per request. */
const StoredClubDetail = Type.Omit(ClubDetail, ['coaches', 'links']);

export const CLUB_FIELDS = fieldsOf(ClubListItem);
export const CLUB_DETAIL_FIELDS = fieldsOf(StoredClubDetail);

export const toClubListItem = recordOf(ClubListItem);
const toStoredClubDetail = recordOf(StoredClubDetail);

export function toClubDetail(c: Projected<ClubDocument, (typeof CLUB_DETAIL_FIELDS)[number]>, coaches: Coach[], urls: ApiUrls): ClubDetail {
  const id = segment(c.id);
  return {
    ...toStoredClubDetail(c),
    coaches,
    links: {
      self: urls.api(`/clubs/${id}`),
      dancers: urls.api('/dancers', { clubId: c.id }),
      coaches: urls.api('/coaches', { clubId: c.id }),
      web: urls.site(`/clubs/${id}`),
    },
  };
}
