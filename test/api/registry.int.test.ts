import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import type { PageMeta } from '../../schemas/api/index.ts';
import {
  ClubEnvelope,
  ClubListEnvelope,
  CoachListEnvelope,
  DancerListEnvelope,
  JudgeListEnvelope,
  RegistryFilters,
} from '../../schemas/api/index.ts';
import { API, SITE_URL, idsIn, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { EE, LT, LV, clubLocation } from './eventBuilders.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';
import { NOW, clubs, people, registryEvents } from './registrySeed.ts';

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_registry');
  await database.project(registryEvents, NOW);
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

const SCHEMAS: Record<string, TSchema> = {
  dancers: DancerListEnvelope,
  coaches: CoachListEnvelope,
  judges: JudgeListEnvelope,
  clubs: ClubListEnvelope,
};

async function list(
  listing: string,
  query = '',
): Promise<{ ids: string[]; body: { data: Array<Record<string, unknown>>; meta: PageMeta } }> {
  const res = await api.request(`/api/v1/${listing}${query === '' ? '' : `?${query}`}`);
  expect(res.status, `${listing}?${query}: ${res.text}`).toBe(200);
  expectMatchesSchema(res.json, SCHEMAS[listing]!);
  expect(res.json).toHaveProperty('links.self');
  return { ids: idsIn(res.json), body: res.json as { data: Array<Record<string, unknown>>; meta: PageMeta } };
}
const idsOf = async (listing: string, query = ''): Promise<string[]> => (await list(listing, query)).ids;

const { anna, marta, olga, ozols, zarins, bufferCoach, judge } = people;
const [p22, p20, p21] = people.petrov as [string, string, string];
const latvia = { id: 117, name: 'Latvia', code: 'LV' };

describe('GET /dancers', () => {
  it('lists REGISTRY dancers by Latin surname, name, then id, with every field', async () => {
    const { ids, body } = await list('dancers');
    expect(ids).toEqual([anna, marta, p20, p21, p22]);
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1, hasNextPage: false, hasPreviousPage: false });
    expect(body.data[0]).toEqual({
      id: anna,
      name: 'Anna',
      surname: 'Bērziņa',
      nameEn: 'Anna',
      surnameEn: 'Berzina',
      avatar: null,
      danceClass: 4,
      country: latvia,
      status: 'ACTIVE',
      membershipExpiresAt: '2026-02-02T00:00:00.000Z',
      registryState: 'REGISTRY',
      registryUntil: '2026-05-02',
      archivedAt: null,
    });
  });

  it('reads the archive alone or merged with the registry; BUFFER is refused', async () => {
    const archived = await list('dancers', 'registryState=ARCHIVE');
    expect(archived.ids).toEqual([olga]);
    expect(archived.body.data[0]).toMatchObject({ registryState: 'ARCHIVE', registryUntil: null, archivedAt: '2025-05-01T12:00:00.000Z' });
    expect(await idsOf('dancers', 'registryState=REGISTRY,ARCHIVE')).toEqual([olga, anna, marta, p20, p21, p22]);
    expect(await idsOf('dancers', 'registryState=ARCHIVE,REGISTRY')).toEqual([olga, anna, marta, p20, p21, p22]);
    const refused = await api.request('/api/v1/dancers?registryState=BUFFER');
    expect(refused.status).toBe(400);
    expect(refused.json.error.details).toEqual([
      'registryState: unsupported value "BUFFER" (accepted: REGISTRY, ARCHIVE; the buffer is internal and never returned)',
    ]);
  });

  it('matches status against the dancer role only', async () => {
    expect(await idsOf('dancers', 'status=INACTIVE')).toEqual([marta]);
    expect(await idsOf('dancers', 'status=ACTIVE')).toEqual([anna]);
    expect(await idsOf('dancers', 'status=ACTIVE,INACTIVE')).toEqual([anna, marta]);
    expect(await idsOf('dancers', 'status=LIMITED')).toEqual([]);
  });

  it('matches clubId and coachId on current links only (closed by archival: never)', async () => {
    expect(await idsOf('dancers', `clubId=${clubs.aurora}`)).toEqual([anna, marta]);
    expect(await idsOf('dancers', `clubId=${clubs.aurora}&registryState=REGISTRY,ARCHIVE`)).toEqual([anna, marta]);
    expect(await idsOf('dancers', `coachId=${ozols}&registryState=ARCHIVE`)).toEqual([]);
    expect(await idsOf('dancers', `coachId=${ozols}`)).toEqual([anna]);
    expect(await idsOf('dancers', `coachId=${zarins}`)).toEqual([marta]);
    expect(await idsOf('dancers', `clubId=${clubs.tango}`)).toEqual([p20, p21, p22]);
  });

  it('filters sex, country, countryId, danceClass, hasPartner and search (both spellings), AND-combined', async () => {
    expect(await idsOf('dancers', 'sex=MALE')).toEqual([p20, p21, p22]);
    expect(await idsOf('dancers', 'sex=FEMALE')).toEqual([anna, marta]);
    expect(await idsOf('dancers', 'countryId=68')).toEqual([p20, p21, p22]);
    expect(await idsOf('dancers', 'country=ee')).toEqual([p20, p21, p22]);
    expect(await idsOf('dancers', 'country=Estonia')).toEqual([p20, p21, p22]);
    expect(await idsOf('dancers', 'danceClass=4')).toEqual([anna]);
    expect(await idsOf('dancers', 'danceClass=4&registryState=REGISTRY,ARCHIVE')).toEqual([olga, anna]);
    expect(await idsOf('dancers', 'hasPartner=true')).toEqual([anna]);
    expect(await idsOf('dancers', 'hasPartner=false')).toEqual([marta, p20, p21, p22]);
    expect(await idsOf('dancers', 'search=berzina')).toEqual([anna]);
    expect(await idsOf('dancers', 'search=B%C4%93RZ')).toEqual([anna]); // "BēRZ"
    // Two characters: inside a word (a 3-gram begins with them), ending one (its last pair), folded.
    expect(await idsOf('dancers', 'search=rz')).toEqual([anna]);
    expect(await idsOf('dancers', 'search=ta')).toEqual([marta]);
    expect(await idsOf('dancers', 'search=%C5%85a')).toEqual([anna, marta]); // "Ņa": Bērziņa, Kalniņa
    expect(await idsOf('dancers', 'search=ivan%20petrov')).toEqual([p20, p21, p22]);
    expect(await idsOf('dancers', 'search=%D0%B8%D0%B2%D0%B0%D0%BD')).toEqual([p20, p21, p22]); // "иван"
    expect(await idsOf('dancers', 'search=kaln&status=INACTIVE&sex=FEMALE&country=LV')).toEqual([marta]);
    expect(await idsOf('dancers', 'search=kaln&status=ACTIVE')).toEqual([]);
  });

  it('sorts by approval time in both orders, ties by id ascending, and pages without overlap', async () => {
    expect(await idsOf('dancers', 'sort=approvedAt')).toEqual([anna, marta, p20, p22, p21]);
    expect(await idsOf('dancers', 'sort=approvedAt&order=desc')).toEqual([p21, p20, p22, marta, anna]);
    expect(await idsOf('dancers', 'sort=name&order=desc')).toEqual([p20, p21, p22, marta, anna]);
    for (const query of ['sort=name', 'sort=name&order=desc', 'sort=approvedAt&order=desc']) {
      const pages = [];
      for (let page = 1; page <= 3; page++) pages.push(...(await idsOf('dancers', `${query}&limit=2&page=${page}`)));
      expect(pages).toEqual(await idsOf('dancers', query));
    }
    const last = await list('dancers', 'limit=2&page=3');
    expect(last.body.meta).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3, hasNextPage: false, hasPreviousPage: true });
    const past = await list('dancers', 'limit=2&page=4');
    expect(past.ids).toEqual([]);
    expect(past.body.meta).toEqual({ page: 4, limit: 2, total: 5, totalPages: 3, hasNextPage: false, hasPreviousPage: true });
  });
});

describe('GET /coaches', () => {
  it('lists coaches holding a registry dancer; a buffer coach is absent from every state and search', async () => {
    const { ids, body } = await list('coaches');
    expect(ids).toEqual([ozols, zarins]);
    expect(body.data[0]).toEqual({
      id: ozols,
      name: 'Jānis',
      surname: 'Ozols',
      nameEn: null,
      surnameEn: null,
      avatar: null,
      highestClass: 8,
      country: latvia,
      registryState: 'REGISTRY',
      registryUntil: null,
      archivedAt: null,
    });
    expect(await idsOf('coaches', 'registryState=ARCHIVE')).toEqual([]);
    expect(await idsOf('coaches', 'registryState=REGISTRY,ARCHIVE')).toEqual([ozols, zarins]);
    expect(await idsOf('coaches', 'search=aigars')).toEqual([]);
    expect(await idsOf('coaches', `clubId=${clubs.aurora}&registryState=REGISTRY,ARCHIVE`)).toEqual([ozols, zarins]);
    expect(idsIn(body)).not.toContain(bufferCoach);
  });

  it('filters and sorts; status is refused', async () => {
    expect(await idsOf('coaches', 'highestClass=8')).toEqual([ozols]);
    expect(await idsOf('coaches', 'country=lv&sex=MALE')).toEqual([ozols, zarins]);
    expect(await idsOf('coaches', 'countryId=68')).toEqual([]);
    expect(await idsOf('coaches', 'search=zarins')).toEqual([zarins]);
    expect(await idsOf('coaches', 'sort=approvedAt&order=desc')).toEqual([zarins, ozols]);
    expect(await idsOf('coaches', 'sort=name&order=desc&limit=1')).toEqual([zarins]);
    const refused = await api.request('/api/v1/coaches?status=ACTIVE');
    expect(refused.status).toBe(400);
    expect(refused.json.error.details).toEqual(['status: not accepted on /coaches (coaches have no status)']);
  });
});

describe('GET /judges', () => {
  it('reports the judge role status, independent of the same person as a dancer', async () => {
    const { ids, body } = await list('judges');
    expect(ids).toEqual([marta, judge]);
    expect(body.data[0]).toEqual({
      id: marta,
      name: 'Marta',
      surname: 'Kalniņa',
      nameEn: null,
      surnameEn: null,
      avatar: null,
      judgeCategory: 2,
      country: latvia,
      status: 'ACTIVE',
      membershipExpiresAt: '2026-01-01T00:00:00.000Z',
      registryState: 'REGISTRY',
      registryUntil: '2026-04-01',
      archivedAt: null,
    });
    const asDancer = (await list('dancers', 'search=marta')).body.data[0];
    expect(asDancer).toMatchObject({ id: marta, status: 'INACTIVE', registryState: 'REGISTRY' });
    expect(await idsOf('judges', 'status=ACTIVE')).toEqual([marta]);
    expect(await idsOf('judges', 'status=INACTIVE')).toEqual([]);
    expect(await idsOf('judges', 'status=LIMITED')).toEqual([judge]);
  });

  it('filters position, judgeCategory, country and countryId', async () => {
    expect(await idsOf('judges', 'position=headJudge')).toEqual([marta]);
    expect(await idsOf('judges', 'position=sportsInspector')).toEqual([judge]);
    expect(await idsOf('judges', 'judgeCategory=1')).toEqual([judge]);
    expect(await idsOf('judges', 'countryId=130')).toEqual([judge]);
    expect(await idsOf('judges', 'country=Lithuania')).toEqual([judge]);
    expect(await idsOf('judges', 'search=ruta')).toEqual([judge]);
    expect(await idsOf('judges', 'registryState=ARCHIVE')).toEqual([]);
  });
});

describe('GET /clubs', () => {
  it('lists clubs holding a registry member with every field; the buffer club never appears', async () => {
    const { ids, body } = await list('clubs');
    expect(ids).toEqual([clubs.aurora, clubs.tango]);
    expect(body.data[0]).toEqual({
      id: clubs.aurora,
      name: 'DSC Aurora',
      logo: 'https://cdn.example/aurora.png',
      address: 'Rīga street 1',
      country: latvia,
      locations: [1, 2, 3].map((n) => {
        const { id: _id, ...location } = clubLocation(
          n,
          n === 1 ? 'main' : 'branch',
          ['Rīga', 'Jūrmala', 'Tartu'][n - 1]!,
          n === 3 ? EE : LV,
        );
        return location;
      }),
      dancersCount: 2,
      coachesCount: 2,
      registryState: 'REGISTRY',
      registryUntil: null,
      archivedAt: null,
    });
    expect(await idsOf('clubs', 'registryState=ARCHIVE')).toEqual([clubs.archived]);
    expect(await idsOf('clubs', 'registryState=REGISTRY,ARCHIVE')).toEqual([clubs.aurora, clubs.archived, clubs.tango]);
    expect(await idsOf('clubs', 'search=hall')).toEqual([]);
    expect(await idsOf('clubs', 'search=hall&registryState=REGISTRY,ARCHIVE')).toEqual([]);
  });

  it('matches city (prefix), country and countryId on any location, branches included', async () => {
    expect(await idsOf('clubs', 'city=jur')).toEqual([clubs.aurora]);
    expect(await idsOf('clubs', 'city=TAR')).toEqual([clubs.aurora]);
    expect(await idsOf('clubs', 'city=riga')).toEqual([clubs.aurora]);
    expect(await idsOf('clubs', 'city=tal')).toEqual([clubs.tango]);
    expect(await idsOf('clubs', 'city=tal&registryState=REGISTRY,ARCHIVE')).toEqual([clubs.archived, clubs.tango]);
    expect(await idsOf('clubs', 'city=inn')).toEqual([]);
    expect(await idsOf('clubs', 'country=EE')).toEqual([clubs.aurora, clubs.tango]);
    expect(await idsOf('clubs', 'country=estonia')).toEqual([clubs.aurora, clubs.tango]);
    expect(await idsOf('clubs', 'countryId=117')).toEqual([clubs.aurora]);
    expect(await idsOf('clubs', 'search=aurora&countryId=68')).toEqual([clubs.aurora]);
  });

  it('sorts approvedAt with nulls last in both orders; status is refused', async () => {
    expect(await idsOf('clubs', 'sort=approvedAt&registryState=REGISTRY,ARCHIVE')).toEqual([clubs.aurora, clubs.archived, clubs.tango]);
    expect(await idsOf('clubs', 'sort=approvedAt&order=desc&registryState=REGISTRY,ARCHIVE')).toEqual([
      clubs.aurora,
      clubs.archived,
      clubs.tango,
    ]);
    expect(await idsOf('clubs', 'sort=name&order=desc')).toEqual([clubs.tango, clubs.aurora]);
    const refused = await api.request('/api/v1/clubs?status=ACTIVE&cityId=1');
    expect(refused.status).toBe(400);
    expect(refused.json.error.details).toEqual([
      'status: not accepted on /clubs (clubs have no status)',
      'cityId: unknown parameter (removed; use city)',
    ]);
  });
});

describe('GET /clubs/{id}', () => {
  it('returns the detail with contacts, current registry coaches by surname, and links', async () => {
    const res = await api.request(`/api/v1/clubs/${clubs.aurora}`);
    expect(res.status).toBe(200);
    expectMatchesSchema(res.json, ClubEnvelope);
    const { data } = res.json;
    expect(data).toMatchObject({
      id: clubs.aurora,
      foundedOn: '1998',
      approvedAt: '2024-01-10T08:55:00.000Z',
      contacts: { phone: '+371 2000 0000', email: 'info@aurora.example.lv', website: null, instagram: '@aurora', facebook: null },
      dancersCount: 2,
      coachesCount: 2,
      links: {
        self: `${API}/clubs/${clubs.aurora}`,
        dancers: `${API}/dancers?clubId=${clubs.aurora}`,
        coaches: `${API}/coaches?clubId=${clubs.aurora}`,
        web: `${SITE_URL}/clubs/${clubs.aurora}`,
      },
    });
    expect(idsIn({ data: data.coaches })).toEqual([ozols, zarins]);
    expect(data.coaches[1]).toEqual({
      id: zarins,
      name: 'Pēteris',
      surname: 'Zariņš',
      nameEn: null,
      surnameEn: null,
      avatar: null,
      highestClass: 6,
      country: latvia,
      registryState: 'REGISTRY',
      registryUntil: null,
      archivedAt: null,
    });
    const staffLink = await api.request(new URL(data.links.coaches).pathname + new URL(data.links.coaches).search);
    expect(idsIn(staffLink.json)).toEqual([ozols, zarins]);
  });

  it('returns archived clubs and answers 404 for the buffer, unknown ids and non-uuids', async () => {
    const archived = await api.request(`/api/v1/clubs/${clubs.archived}`);
    expect(archived.status).toBe(200);
    expectMatchesSchema(archived.json, ClubEnvelope);
    expect(archived.json.data).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: '2025-01-05T09:00:00.000Z',
      foundedOn: '1975-05-01',
      approvedAt: null,
      coaches: [],
    });
    const tango = await api.request(`/api/v1/clubs/${clubs.tango}`);
    expect(tango.json.data).toMatchObject({ dancersCount: 3, coachesCount: 0, coaches: [] });
    for (const id of [clubs.buffer, 'b0000000-0000-4000-8000-0000000000ff']) {
      const res = await api.request(`/api/v1/clubs/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.json).toEqual({ error: { type: 'NOT_FOUND', message: 'No club has this id.', details: [] } });
    }
    const notUuid = await api.request('/api/v1/clubs/dsc-aurora');
    expect(notUuid.status).toBe(404);
    expect(notUuid.json.error.type).toBe('NOT_FOUND');
  });
});

describe('GET /registry/filters', () => {
  it('counts REGISTRY records per country (buffer and archive excluded) and lists the values', async () => {
    const res = await api.request('/api/v1/registry/filters');
    expect(res.status).toBe(200);
    expectMatchesSchema(res.json, RegistryFilters);
    expect(res.json.data).toEqual({
      countsScope: 'registryState=REGISTRY',
      countries: [
        { ...EE, counts: { dancers: 3, coaches: 0, judges: 0, clubs: 2 } },
        { ...LV, counts: { dancers: 2, coaches: 2, judges: 1, clubs: 1 } },
        { ...LT, counts: { dancers: 0, coaches: 0, judges: 1, clubs: 0 } },
      ],
      danceClasses: [3, 4, 5],
      judgeCategories: [1, 2],
      judgePositions: ['judge', 'headJudge', 'sportsInspector'],
      statuses: ['ACTIVE', 'LIMITED', 'INACTIVE'],
      registryStates: ['REGISTRY', 'ARCHIVE'],
    });
  });
});
