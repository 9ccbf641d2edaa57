import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Country, DomainEvent } from '../../services/events/index.ts';
import { openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { EE, History, LV, competitionDetails, competitionId, person, personId, venue } from './eventBuilders.ts';

// `/filters` and `/registry/filters` list names in the order people read them (the Unicode root
// collation), not by code point, where "Ústí nad Labem" came after "Ventspils" and "Åland
// Islands" after "Switzerland". Equal names keep a fixed order, so the body and its ETag do not
// depend on the order the database returns groups in.

const NOW = new Date('2025-06-14T10:00:00Z');
const CZ: NonNullable<Country> = { id: 203, name: 'Czechia', code: 'CZ' };
const CH: NonNullable<Country> = { id: 756, name: 'Switzerland', code: 'CH' };
const AX: NonNullable<Country> = { id: 248, name: 'Åland Islands', code: 'AX' };
const PL: NonNullable<Country> = { id: 616, name: 'Poland', code: 'PL' };

const cities: Array<[NonNullable<Country>, string]> = [
  [LV, 'Ventspils'],
  [CZ, 'Ústí nad Labem'],
  [CH, 'Zürich'],
  [PL, 'Łódź'],
  [AX, 'Mariehamn'],
  [LV, 'Rīga'],
  [LV, 'Riga'],
  // Valga and Valka are one town on the Estonian-Latvian border; the same name twice, told apart by country.
  [LV, 'Valga'],
  [EE, 'Valga'],
  [LV, 'Ogre'],
];
const competitions = cities.map(([country, city], i) =>
  new History(competitionId(i + 1))
    .at('2025-05-01T10:00:00Z', 'competition.drafted', competitionDetails(i + 1, { location: venue(country, city) }))
    .at('2025-05-02T10:00:00Z', 'competition.published', {}),
);
const dancers = [LV, AX, CH, CZ, PL].map((country, i) =>
  new History(personId(i + 1))
    .at('2025-01-01T10:00:00Z', 'person.registered', person('Anna', `Surname ${i}`, country))
    .at('2025-01-01T10:01:00Z', 'person.role_granted', {
      role: 'dancer',
      approvedAt: '2025-01-01T10:01:00Z',
      registryUntil: '2026-01-01',
      danceClass: 3,
      hasPartner: false,
    }),
);
const events: DomainEvent[] = [...competitions, ...dancers].flatMap((h) => h.events);

const names = (list: unknown): string[] => (list as Array<{ name: string }>).map((c) => c.name);

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_filters_collation');
  await database.project(events, NOW);
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

describe('names in /filters and /registry/filters', () => {
  it('orders cities by collation, then code units, then country code', async () => {
    const res = await api.request('/api/v1/filters');
    expect(res.status).toBe(200);
    expect((res.json.data.cities as Array<{ name: string; countryCode: string }>).map((c) => `${c.name} ${c.countryCode}`)).toEqual([
      'Łódź PL',
      'Mariehamn AX',
      'Ogre LV',
      'Riga LV',
      'Rīga LV',
      'Ústí nad Labem CZ',
      'Valga EE',
      'Valga LV',
      'Ventspils LV',
      'Zürich CH',
    ]);
  });

  it('orders countries by collation', async () => {
    const calendar = await api.request('/api/v1/filters');
    expect(names(calendar.json.data.countries)).toEqual(['Åland Islands', 'Czechia', 'Estonia', 'Latvia', 'Poland', 'Switzerland']);
    const registry = await api.request('/api/v1/registry/filters');
    expect(registry.status).toBe(200);
    expect(names(registry.json.data.countries)).toEqual(['Åland Islands', 'Czechia', 'Latvia', 'Poland', 'Switzerland']);
  });
});
