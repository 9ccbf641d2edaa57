import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import addFormats from 'ajv-formats';
import { Category } from './category.ts';
import { Competition } from './competition.ts';
import { Coach, Dancer, Judge } from './registryPeople.ts';
import { ClubDetail, ClubListItem } from './club.ts';
import { CategoryListEnvelope, ClubListEnvelope, CompetitionListEnvelope, DancerListEnvelope, PageMeta } from './envelopes.ts';
import { CompetitionFilters, RegistryFilters } from './filterBodies.ts';
import { ErrorEnvelope } from './errorEnvelope.ts';
import { ENDPOINTS, ENDPOINT_NAMES } from './endpoints.ts';

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats.default(ajv);
const valid = (schema: TSchema, value: unknown) => ajv.validate(schema, value);

const ID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const country = { id: 1, name: 'Latvia', code: 'LV' };

const category = {
  id: ID,
  name: 'Juniors I Latin',
  entryType: 'couple',
  style: 'latin',
  ageGroup: 'Juniors I',
  birthYearRange: '2012-2013',
  participantDivision: null,
  level: 3,
  dances: ['S', 'ChCh'],
  displayOrder: 1,
  startsCount: 12,
};
const competition = {
  id: ID,
  slug: 'riga-open-2025',
  name: 'Riga Open 2025',
  shortName: 'Riga Open',
  description: null,
  descriptionFormatted: null,
  status: 'open',
  type: { code: 'open', label: 'Open competition' },
  organizer: { name: 'Club A', shortName: null, country: 'Latvia', countryCode: 'LV', website: null },
  resultsUrl: null,
  dates: { start: '2025-03-01', end: '2025-03-02' },
  location: {
    country: 'Latvia',
    countryId: 1,
    countryCode: 'LV',
    city: 'Riga',
    formattedAddress: null,
    placeId: null,
    venueName: null,
    venueAddress: null,
    label: 'Riga, Latvia',
  },
  registration: {
    status: 'open',
    state: 'not_yet_open',
    opensAt: '2025-01-01',
    deadline: '2025-02-20',
    maxEntries: null,
    entriesCount: 3,
    startsCount: 5,
  },
  banner: { horizontal: { '640': 'https://cdn/x-640.jpg', '1280': 'https://cdn/x-1280.jpg' }, vertical: null },
  media: { entryForm: null },
  categories: [category],
  createdAt: '2024-11-01T10:00:00Z',
  updatedAt: '2024-12-01T10:00:00.123Z',
  links: {
    self: '/api/v1/competitions/riga-open-2025',
    categories: '/api/v1/competitions/riga-open-2025/categories',
    web: 'https://site/c/riga-open-2025',
    registration: 'https://site/c/riga-open-2025/entries',
  },
};
const registryFields = { registryState: 'REGISTRY', registryUntil: '2026-01-31', archivedAt: null };
const person = { id: ID, name: 'Jānis', surname: 'Bērziņš', nameEn: 'Janis', surnameEn: 'Berzins', avatar: null, country };
const dancer = { ...person, danceClass: 4, status: 'INACTIVE', membershipExpiresAt: '2025-01-31T00:00:00Z', ...registryFields };
const coach = { ...person, highestClass: 6, ...registryFields, registryUntil: null };
const judge = { ...person, judgeCategory: 2, status: 'ACTIVE', membershipExpiresAt: null, ...registryFields };
const location = { type: 'main', address: 'Brīvības iela 1, Riga', city: 'Riga', country, placeId: null };
const club = {
  id: ID,
  name: 'Dance Club',
  logo: null,
  address: 'Brīvības iela 1, Riga',
  country,
  locations: [location, { ...location, type: 'branch', city: 'Jūrmala' }],
  dancersCount: 10,
  coachesCount: 2,
  registryState: 'ARCHIVE',
  registryUntil: null,
  archivedAt: '2024-06-01T00:00:00Z',
};
const clubDetail = {
  ...club,
  foundedOn: '1998',
  approvedAt: null,
  contacts: { phone: null, email: 'a@b.lv', website: null, instagram: null, facebook: null },
  coaches: [coach],
  links: { self: '/api/v1/clubs/x', dancers: '/api/v1/dancers?clubId=x', coaches: '/api/v1/coaches?clubId=x', web: 'https://site/clubs/x' },
};
const meta = { page: 1, limit: 20, total: 1, totalPages: 1, hasNextPage: false, hasPreviousPage: false };

describe('response schemas accept what api-v1.md and decisions.md describe', () => {
  it.each([
    ['Category', Category, category],
    ['Competition', Competition, competition],
    ['Dancer', Dancer, dancer],
    ['Coach', Coach, coach],
    ['Judge', Judge, judge],
    ['Club listing item', ClubListItem, club],
    ['Club detail', ClubDetail, clubDetail],
    ['competition list', CompetitionListEnvelope, { data: [competition], meta, links: { self: '/x', next: null, previous: null } }],
    ['category list', CategoryListEnvelope, { data: [category], meta: { total: 1 } }],
    ['dancer list', DancerListEnvelope, { data: [dancer], meta, links: { self: '/d?page=1', next: '/d?page=2', previous: null } }],
    ['club list', ClubListEnvelope, { data: [club], meta, links: { self: '/c?page=2', next: null, previous: '/c?page=1' } }],
    ['error', ErrorEnvelope, { error: { type: 'NOT_FOUND', message: 'No.', details: [] } }],
  ] as const)('%s', (_name, schema, value) => {
    expect(valid(schema, value), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('accepts null for every nullable block', () => {
    expect(
      valid(Competition, {
        ...competition,
        type: null,
        organizer: null,
        banner: { horizontal: null, vertical: { default: 'https://cdn/x.jpg' } },
      }),
    ).toBe(true);
    expect(valid(Dancer, { ...dancer, country: null, status: null, registryState: null, registryUntil: null })).toBe(true);
    expect(valid(Category, { ...category, style: null, level: null })).toBe(true);
  });

  it('keeps entriesCount, startsCount and categories optional on the list item', () => {
    const { categories: _categories, ...withoutCategories } = competition;
    const { entriesCount: _e, startsCount: _s, ...registration } = competition.registration;
    expect(valid(Competition, { ...withoutCategories, registration })).toBe(true);
  });

  it('rejects what the spec rules out', () => {
    expect(valid(PageMeta, { page: 1, limit: 20, total: 0, totalPages: 0, hasNextPage: false })).toBe(false);
    expect(valid(Dancer, { ...dancer, membershipExpiresAt: '2025-01-31' })).toBe(false);
    expect(valid(Dancer, { ...dancer, registryState: 'BUFFER' })).toBe(false);
    expect(valid(Competition, { ...competition, registration: { ...competition.registration, state: 'isOpen' } })).toBe(false);
    expect(valid(Competition, { ...competition, location: { ...competition.location, label: undefined } })).toBe(false);
    expect(valid(Competition, { ...competition, banner: { horizontal: { large: 'x' }, vertical: null } })).toBe(false);
    expect(valid(Category, { ...category, level: 11 })).toBe(false);
    expect(valid(ClubListItem, { ...club, locations: [{ ...location, type: 'office' }] })).toBe(false);
    expect(valid(Coach, { ...coach, country: { id: 1, name: 'Latvia', code: 'lv' } })).toBe(false);
    expect(valid(DancerListEnvelope, { data: [dancer], meta }), 'registry listings carry links like competitions').toBe(false);
  });

  it('describes the two filter bodies exactly as decisions.md states them', () => {
    const calendar = {
      data: {
        countries: [{ id: 1, name: 'Latvia', code: 'LV', competitionsCount: 3 }],
        cities: [{ name: 'Riga', countryCode: 'LV', competitionsCount: 2 }],
        types: [{ code: 'open', label: 'Open' }],
        statuses: ['open', 'completed'],
        registrationStatuses: ['open', 'closed'],
        registrationStates: ['not_yet_open', 'open', 'closed'],
        periods: ['upcoming', 'ongoing', 'past'],
        entryTypes: ['couple', 'solo', 'duo-synchro', 'mix', 'show'],
        styles: ['none', 'latin', 'standard', 'combined'],
        sorts: ['startDate', 'endDate', 'name', 'createdAt', 'updatedAt'],
      },
    };
    expect(valid(CompetitionFilters, calendar), JSON.stringify(ajv.errors)).toBe(true);
    const registry = {
      data: {
        countsScope: 'registryState=REGISTRY',
        countries: [{ id: 1, name: 'Latvia', code: 'LV', counts: { dancers: 1, coaches: 2, judges: 3, clubs: 4 } }],
        danceClasses: [1, 2],
        judgeCategories: [1],
        judgePositions: ['judge', 'headJudge', 'sportsInspector'],
        statuses: ['ACTIVE', 'LIMITED', 'INACTIVE'],
        registryStates: ['REGISTRY', 'ARCHIVE'],
      },
    };
    expect(valid(RegistryFilters, registry), JSON.stringify(ajv.errors)).toBe(true);
    expect(valid(RegistryFilters, { data: { ...registry.data, countsScope: 'all' } })).toBe(false);
    const { sorts: _sorts, ...withoutSorts } = calendar.data;
    expect(valid(CompetitionFilters, { data: withoutSorts })).toBe(false);
  });

  it('compiles every endpoint response schema under strict ajv', () => {
    for (const name of ENDPOINT_NAMES) expect(() => ajv.compile(ENDPOINTS[name].response)).not.toThrow();
  });
});
