import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryListEnvelope, CompetitionEnvelope, CompetitionFilters, CompetitionListEnvelope } from '../../schemas/api/index.ts';
import type { Category, CompetitionListEnvelope as CompetitionList } from '../../schemas/api/index.ts';
import { API, SITE_URL, idsIn, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, defaultOrder, ids } from './calendarSeed.ts';
import { categoryId } from './eventBuilders.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_competitions');
  await database.project(calendarEvents, NOW);
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

async function list(query = ''): Promise<{ ids: string[]; body: CompetitionList }> {
  const res = await api.request(`/api/v1/competitions${query === '' ? '' : `?${query}`}`);
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  expectMatchesSchema(res.json, CompetitionListEnvelope);
  return { ids: idsIn(res.json), body: res.json as CompetitionList };
}

const idsOf = async (query: string): Promise<string[]> => (await list(query)).ids;
const { riga, tallinn, vilnius, jurmala, ties } = ids;

describe('GET /competitions', () => {
  it('lists published competitions only (never drafts or unpublished), by start date then id', async () => {
    const { ids: got, body } = await list();
    expect(got).toEqual(defaultOrder);
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 9, totalPages: 1, hasNextPage: false, hasPreviousPage: false });
    expect(body.links).toEqual({ self: `${API}/competitions?limit=20&order=asc&page=1&sort=startDate`, next: null, previous: null });
  });

  it('returns every field of a competition, without include extras by default', async () => {
    const { body } = await list('search=riga');
    expect(body.data).toEqual([
      {
        id: riga,
        slug: 'riga-open-2025',
        name: 'Riga Open 2025',
        shortName: 'Riga Open',
        description: 'Two days of Latin and Standard in the Arena Riga.',
        descriptionFormatted: 'Two days of **Latin** and *Standard* in the Arena Riga.',
        status: 'open',
        type: { code: 'international_open', label: 'International Open' },
        organizer: { name: 'DSC Aurora', shortName: 'Aurora', country: 'Latvia', countryCode: 'LV', website: 'https://aurora.example.lv' },
        resultsUrl: null,
        dates: { start: '2025-06-14', end: '2025-06-15' },
        location: {
          country: 'Latvia',
          countryId: 117,
          countryCode: 'LV',
          city: 'Rīga',
          formattedAddress: 'Skanstes iela 21, Rīga',
          placeId: 'place-1',
          venueName: 'Arena Riga',
          venueAddress: 'Skanstes iela 21',
          label: 'Rīga, Latvia',
        },
        registration: { status: 'open', state: 'open', opensAt: '2025-04-01', deadline: '2025-06-20', maxEntries: 400 },
        banner: {
          horizontal: { '640': 'https://cdn.example/riga-640.webp', '1280': 'https://cdn.example/riga-1280.webp' },
          vertical: { default: 'https://cdn.example/riga-v.jpg' },
        },
        media: { entryForm: 'https://cdn.example/riga-entry.pdf' },
        createdAt: '2025-03-01T10:00:00.000Z',
        updatedAt: '2025-04-03T10:00:00.000Z',
        links: {
          self: `${API}/competitions/${riga}`,
          categories: `${API}/competitions/${riga}/categories`,
          web: `${SITE_URL}/competitions/riga-open-2025`,
          registration: `${SITE_URL}/competitions/riga-open-2025/registration`,
        },
      },
    ]);
  });

  it('adds registration.entriesCount with include=entriesCount, categories and startsCount with include=categories', async () => {
    const entries = (await list('search=riga&include=entriesCount')).body.data[0]!;
    expect(entries.registration).toMatchObject({ entriesCount: 2 });
    expect(entries.registration).not.toHaveProperty('startsCount');
    expect(entries).not.toHaveProperty('categories');
    const withCategories = (await list('search=riga&include=categories')).body.data[0]!;
    expect(withCategories.registration).toMatchObject({ startsCount: 3 });
    expect(withCategories.registration).not.toHaveProperty('entriesCount');
    expect(withCategories.categories?.map((c) => c.name)).toEqual(['Youth Latin', 'Adult Standard', 'Solo Show Kids']);
    const both = (await list('search=riga&include=categories,entriesCount')).body.data[0]!;
    expect(both.registration).toMatchObject({ entriesCount: 2, startsCount: 3 });
    const plain = (await list('search=tallinn')).body.data[0]!;
    expect(plain).not.toHaveProperty('categories');
    expect(Object.keys(plain.registration)).toEqual(['status', 'state', 'opensAt', 'deadline', 'maxEntries']);
  });

  it('uses the external registration URL when the organiser collects entries elsewhere', async () => {
    const item = (await list('search=tallinn')).body.data[0]!;
    expect(item.links.registration).toBe('https://entries.example.ee/tallinn');
    expect(item.registration.state).toBe('not_yet_open');
  });

  it('searches name, city, country, venue and description; case, diacritics and regex characters do not matter', async () => {
    expect(await idsOf('search=RIGA')).toEqual([riga]);
    expect(await idsOf('search=arena')).toEqual([riga]);
    expect(await idsOf('search=two%20days')).toEqual([riga]);
    expect(await idsOf('search=latvia')).toEqual([jurmala, riga]);
    expect(await idsOf('search=jurmala')).toEqual([jurmala]);
    expect(await idsOf('search=%C5%AArmala')).toEqual([jurmala]); // Ūrmala
    expect(await idsOf('search=(latin%2B)')).toEqual([jurmala]); // "(latin+)" is plain text
    expect(await idsOf('search=a.b')).toEqual([]);
    expect(await idsOf('search=.*')).toEqual([]);
    expect(await idsOf('search=secret')).toEqual([]); // drafts never match
    expect(await idsOf('search=withdrawn')).toEqual([]);
  });

  it('filters by country (code or full name), countryId and city prefix', async () => {
    expect(await idsOf('country=LV')).toEqual([jurmala, riga]);
    expect(await idsOf('country=lv')).toEqual([jurmala, riga]);
    expect(await idsOf('country=LATVIA')).toEqual([jurmala, riga]);
    expect(await idsOf('country=Latv')).toEqual([]);
    expect(await idsOf('countryId=68')).toEqual([tallinn]);
    expect(await idsOf('countryId=999')).toEqual([]);
    expect(await idsOf('city=ri')).toEqual([riga]);
    expect(await idsOf('city=R%C4%AB')).toEqual([riga]); // "Rī"
    expect(await idsOf('city=J%C5%AAR')).toEqual([jurmala]); // "JŪR"
    expect(await idsOf('city=iga')).toEqual([]); // a prefix, not a substring
    expect(await idsOf('city=tartu')).toEqual([]); // only the unpublished competition is there
  });

  it('filters by status, type and registration status with comma lists', async () => {
    expect(await idsOf('status=completed')).toEqual([vilnius]);
    expect(await idsOf('status=open,completed')).toEqual(defaultOrder);
    expect(await idsOf('type=international_open')).toEqual([riga]);
    expect(await idsOf('type=international_open,%20secret')).toEqual([riga]);
    expect(await idsOf('type=secret')).toEqual([]);
    expect(await idsOf('registrationStatus=closed')).toEqual([vilnius]);
  });

  it('filters registrationOpen and period by the calendar day, consistent with registration.state', async () => {
    const open = await list('registrationOpen=true');
    expect(open.ids).toEqual([riga, ...ties]);
    expect(open.body.data.every((c) => c.registration.state === 'open')).toBe(true);
    const closed = await list('registrationOpen=false');
    expect(closed.ids).toEqual([vilnius, jurmala, tallinn]);
    expect(closed.body.data.map((c) => c.registration.state)).toEqual(['closed', 'closed', 'not_yet_open']);
    expect(await idsOf('period=ongoing')).toEqual([jurmala, riga]);
    expect(await idsOf('period=upcoming')).toEqual([tallinn, ...ties]);
    expect(await idsOf('period=past')).toEqual([vilnius]);
    // The next day: Jūrmala is past, Tallinn still not open.
    api.clock.now = Date.parse('2025-06-15T00:00:00Z');
    try {
      expect(await idsOf('period=ongoing&limit=19')).toEqual([riga]);
      expect(await idsOf('period=past&limit=19')).toEqual([vilnius, jurmala]);
    } finally {
      api.clock.now = NOW.getTime();
    }
  });

  it('keeps competitions overlapping dateFrom..dateTo (inclusive)', async () => {
    expect(await idsOf('dateFrom=2025-06-15&dateTo=2025-07-01')).toEqual([riga, tallinn]);
    expect(await idsOf('dateFrom=2025-06-15')).toEqual([riga, tallinn, ...ties]);
    expect(await idsOf('dateTo=2025-06-10')).toEqual([vilnius, jurmala]);
    expect(await idsOf('dateFrom=2024-10-11&dateTo=2024-10-11')).toEqual([vilnius]);
  });

  it('keeps competitions updated at or after updatedSince (any offset)', async () => {
    const all = (await list()).body.data as Array<{ id: string; updatedAt: string }>;
    const since = '2025-06-01T10:00:00.000Z';
    const expected = all.filter((c) => c.updatedAt >= since).map((c) => c.id);
    expect(expected).toContain(tallinn);
    expect(expected.length).toBeLessThan(all.length);
    expect(await idsOf(`updatedSince=${since}`)).toEqual(expected);
    expect(await idsOf('updatedSince=2025-06-01T13:00:00%2B03:00')).toEqual(expected);
  });

  it('combines filters with AND', async () => {
    expect(await idsOf('country=LV&period=ongoing&registrationOpen=true')).toEqual([riga]);
    expect(await idsOf('country=LV&status=completed')).toEqual([]);
    expect(await idsOf('search=tie&dateFrom=2025-09-01&type=national')).toEqual(ties);
  });

  it('sorts by every key in both orders, equal keys always by id ascending', async () => {
    expect(await idsOf('sort=startDate&order=desc')).toEqual([...ties, tallinn, riga, jurmala, vilnius]);
    expect(await idsOf('sort=name')).toEqual([...ties, jurmala, riga, tallinn, vilnius]);
    expect(await idsOf('sort=name&order=desc')).toEqual([vilnius, tallinn, riga, jurmala, ...ties]);
    expect(await idsOf('sort=endDate')).toEqual([vilnius, jurmala, riga, tallinn, ...ties]);
    expect(await idsOf('sort=createdAt')).toEqual([
      vilnius,
      riga,
      jurmala,
      tallinn,
      ids.ties[4],
      ids.ties[2],
      ids.ties[0],
      ids.ties[3],
      ids.ties[1],
    ]);
    const byUpdated = (await list('sort=updatedAt&order=desc')).body.data as Array<{ id: string; updatedAt: string }>;
    for (let i = 1; i < byUpdated.length; i++) {
      const [a, b] = [byUpdated[i - 1]!, byUpdated[i]!];
      expect(a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id < b.id)).toBe(true);
    }
  });

  it('pages without overlap or gap over equal sort keys, with meta and links at both ends', async () => {
    for (const order of ['asc', 'desc']) {
      const seen: string[] = [];
      for (let page = 1; page <= 5; page++) seen.push(...(await idsOf(`sort=name&order=${order}&limit=2&page=${page}`)));
      expect(seen).toEqual(await idsOf(`sort=name&order=${order}`));
    }
    const first = await list('limit=1');
    expect(first.body.meta).toEqual({ page: 1, limit: 1, total: 9, totalPages: 9, hasNextPage: true, hasPreviousPage: false });
    expect(first.body.links).toEqual({
      self: `${API}/competitions?limit=1&order=asc&page=1&sort=startDate`,
      next: `${API}/competitions?limit=1&order=asc&page=2&sort=startDate`,
      previous: null,
    });
    const last = await list('limit=1&page=9');
    expect(last.ids).toEqual([ties[4]]);
    expect(last.body.meta).toEqual({ page: 9, limit: 1, total: 9, totalPages: 9, hasNextPage: false, hasPreviousPage: true });
    expect(last.body.links).toEqual({
      self: `${API}/competitions?limit=1&order=asc&page=9&sort=startDate`,
      next: null,
      previous: `${API}/competitions?limit=1&order=asc&page=8&sort=startDate`,
    });
    const past = await list('page=10&limit=1&status=open,completed');
    expect(past.ids).toEqual([]);
    expect(past.body.meta).toEqual({ page: 10, limit: 1, total: 9, totalPages: 9, hasNextPage: false, hasPreviousPage: true });
    expect(past.body.links.previous).toBe(`${API}/competitions?limit=1&order=asc&page=9&sort=startDate&status=open,completed`);
    const far = await list('page=9007199254740991&limit=100');
    expect(far.body.meta).toMatchObject({ total: 9, totalPages: 1, hasNextPage: false, hasPreviousPage: true });
    const wide = await list('limit=100');
    expect(wide.body.meta).toEqual({ page: 1, limit: 100, total: 9, totalPages: 1, hasNextPage: false, hasPreviousPage: false });
    const empty = await list('country=FR');
    expect(empty.body.meta).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0, hasNextPage: false, hasPreviousPage: false });
    expect(empty.body.links.previous).toBeNull();
  });
});

describe('GET /competitions/{idOrSlug}', () => {
  it('finds a published competition by id and by slug, always with categories and both counts', async () => {
    for (const key of [riga, 'riga-open-2025']) {
      const res = await api.request(`/api/v1/competitions/${key}`);
      expect(res.status).toBe(200);
      expectMatchesSchema(res.json, CompetitionEnvelope);
      expect(res.json.data.id).toBe(riga);
      expect(res.json.data.registration).toMatchObject({ entriesCount: 2, startsCount: 3 });
      expect(res.json.data.categories).toEqual([
        {
          id: categoryId(1),
          name: 'Youth Latin',
          entryType: 'couple',
          style: 'latin',
          ageGroup: 'Youth',
          birthYearRange: null,
          participantDivision: null,
          level: 6,
          dances: ['S', 'ChCh', 'R', 'P', 'J'],
          displayOrder: 1,
          startsCount: 2,
        },
        {
          id: categoryId(2),
          name: 'Adult Standard',
          entryType: 'couple',
          style: 'standard',
          ageGroup: null,
          birthYearRange: null,
          participantDivision: 'Open',
          level: null,
          dances: ['S', 'R'],
          displayOrder: 2,
          startsCount: 1,
        },
        {
          id: categoryId(3),
          name: 'Solo Show Kids',
          entryType: 'solo',
          style: 'none',
          ageGroup: null,
          birthYearRange: null,
          participantDivision: null,
          level: 2,
          dances: ['S', 'R'],
          displayOrder: 3,
          startsCount: 0,
        },
      ]);
    }
    const tie = await api.request(`/api/v1/competitions/${ties[0]}`);
    expectMatchesSchema(tie.json, CompetitionEnvelope);
    expect(tie.json.data.registration).toMatchObject({ entriesCount: 0, startsCount: 0 });
  });

  it('answers 404 for drafts, unpublished competitions and unknown ids or slugs', async () => {
    for (const key of [
      ids.draft,
      'secret-draft',
      ids.unpublished,
      'withdrawn-gala',
      'c0000000-0000-4000-8000-0000000000ff',
      'no-such-slug',
      'RIGA-OPEN-2025',
    ]) {
      const res = await api.request(`/api/v1/competitions/${key}`);
      expect(res.status, key).toBe(404);
      expect(res.json).toEqual({ error: { type: 'NOT_FOUND', message: 'No published competition has this id or slug.', details: [] } });
      const categories = await api.request(`/api/v1/competitions/${key}/categories`);
      expect(categories.status, key).toBe(404);
    }
  });
});

describe('GET /competitions/{idOrSlug}/categories', () => {
  async function names(key: string, query = ''): Promise<string[]> {
    const res = await api.request(`/api/v1/competitions/${key}/categories${query === '' ? '' : `?${query}`}`);
    expect(res.status, res.text).toBe(200);
    expectMatchesSchema(res.json, CategoryListEnvelope);
    expect(res.json.meta).toEqual({ total: res.json.data.length });
    return (res.json as { data: Category[] }).data.map((c) => c.name);
  }

  it('lists the categories by display order, by id or slug, filtered with AND', async () => {
    expect(await names(riga)).toEqual(['Youth Latin', 'Adult Standard', 'Solo Show Kids']);
    expect(await names('riga-open-2025', 'entryType=solo')).toEqual(['Solo Show Kids']);
    expect(await names(riga, 'entryType=couple,mix')).toEqual(['Youth Latin', 'Adult Standard']);
    expect(await names(riga, 'style=latin,standard')).toEqual(['Youth Latin', 'Adult Standard']);
    expect(await names(riga, 'style=none')).toEqual(['Solo Show Kids']);
    expect(await names(riga, 'level=6')).toEqual(['Youth Latin']);
    expect(await names(riga, 'search=LATIN')).toEqual(['Youth Latin']);
    expect(await names(riga, 'search=t%20st')).toEqual(['Adult Standard']);
    expect(await names(riga, 'search=ow%20k')).toEqual(['Solo Show Kids']);
    expect(await names(riga, 'entryType=couple&style=latin&level=7')).toEqual([]);
    expect(await names(tallinn)).toEqual([]);
  });
});

describe('GET /filters', () => {
  it('counts public competitions only and lists every accepted enum value', async () => {
    const res = await api.request('/api/v1/filters');
    expect(res.status).toBe(200);
    expectMatchesSchema(res.json, CompetitionFilters);
    expect(res.json.data).toEqual({
      countries: [
        { id: 68, name: 'Estonia', code: 'EE', competitionsCount: 1 },
        { id: 117, name: 'Latvia', code: 'LV', competitionsCount: 2 },
        { id: 130, name: 'Lithuania', code: 'LT', competitionsCount: 1 },
      ],
      cities: [
        { name: 'Jūrmala', countryCode: 'LV', competitionsCount: 1 },
        { name: 'Rīga', countryCode: 'LV', competitionsCount: 1 },
        { name: 'Tallinn', countryCode: 'EE', competitionsCount: 1 },
        { name: 'Vilnius', countryCode: 'LT', competitionsCount: 1 },
      ],
      types: [
        { code: 'international_open', label: 'International Open' },
        { code: 'national', label: 'National' },
      ],
      statuses: ['open', 'completed'],
      registrationStatuses: ['open', 'closed'],
      registrationStates: ['not_yet_open', 'open', 'closed'],
      periods: ['upcoming', 'ongoing', 'past'],
      entryTypes: ['couple', 'solo', 'duo-synchro', 'mix', 'show'],
      styles: ['none', 'latin', 'standard', 'combined'],
      sorts: ['startDate', 'endDate', 'name', 'createdAt', 'updatedAt'],
    });
  });
});
