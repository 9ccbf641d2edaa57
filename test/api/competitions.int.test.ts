import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryListEnvelope, CompetitionEnvelope, CompetitionFilters, CompetitionListEnvelope, ErrorEnvelope } from '../../schemas/api/index.ts';
import { API, SITE_URL, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, defaultOrder, ids } from './calendarSeed.ts';
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

async function list(query = ''): Promise<{ ids: string[]; body: any }> {
  const res = await api.request(`/api/v1/competitions${query === '' ? '' : `?${query}`}`);
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  expectMatchesSchema(res.json, CompetitionListEnvelope);
  return { ids: res.json.data.map((c: { id: string }) => c.id), body: res.json };
}

describe('GET /competitions', () => {
  it('lists published competitions only, by start date then id, with meta and absolute links', async () => {
    const { ids: got, body } = await list();
    expect(got).toEqual(defaultOrder);
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 9, totalPages: 1, hasNextPage: false, hasPreviousPage: false });
    expect(body.links).toEqual({ self: `${API}/competitions?limit=20&order=asc&page=1&sort=startDate`, next: null, previous: null });
  });
});
