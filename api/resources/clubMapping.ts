import type { ClubDetail, ClubListItem } from '../../schemas/api/club.ts';
import type { Coach } from '../../schemas/api/registryPeople.ts';
import type { ClubDocument } from '../../services/readModel/documents.ts';
import { segment, type ApiUrls } from './apiUrls.ts';
import { registryStateOf } from './registryStateOf.ts';

export const CLUB_FIELDS = [
  'id',
  'name',
  'logo',
  'address',
  'country',
  'locations',
  'dancersCount',
  'coachesCount',
  'registryState',
  'registryUntil',
  'archivedAt',
] as const;
export const CLUB_DETAIL_FIELDS = [...CLUB_FIELDS, 'foundedOn', 'approvedAt', 'contacts'] as const;

type StoredClub = Omit<ClubDocument, '_id' | 'q' | 'nextDueAt'>;

export function toClubListItem(c: StoredClub): ClubListItem {
  return {
    id: c.id,
    name: c.name,
    logo: c.logo,
    address: c.address,
    country: c.country,
    locations: c.locations.map((l) => ({ type: l.type, address: l.address, city: l.city, country: l.country, placeId: l.placeId })),
    dancersCount: c.dancersCount,
    coachesCount: c.coachesCount,
    registryState: registryStateOf(c.registryState),
    registryUntil: c.registryUntil,
    archivedAt: c.archivedAt,
  };
}

export function toClubDetail(c: StoredClub, coaches: Coach[], urls: ApiUrls): ClubDetail {
  const id = segment(c.id);
  return {
    ...toClubListItem(c),
    foundedOn: c.foundedOn,
    approvedAt: c.approvedAt,
    contacts: { ...c.contacts },
    coaches,
    links: {
      self: urls.api(`/clubs/${id}`),
      dancers: urls.api('/dancers', { clubId: c.id }),
      coaches: urls.api('/coaches', { clubId: c.id }),
      web: urls.site(`/clubs/${id}`),
    },
  };
}
