import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompetitionRemovalListEnvelope, CompetitionListEnvelope } from '../../schemas/api/index.ts';
import type { CompetitionRemovalListEnvelope as CompetitionRemovalList } from '../../schemas/api/index.ts';
import { collectionName } from '../../services/mongo/index.ts';
import { REMOVALS_INDEX_NAME } from '../../services/readModel/indexPlan.ts';
import { removalsFilter } from '../../api/resources/competitionRemovals.ts';
import { API, afterFreshnessBound, idsIn, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { History, competitionDetails, competitionId } from './eventBuilders.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';

// Incremental sync with removals on the real database: `/competitions?updatedSince=` for what
// changed, `/competitions/removals?updatedSince=` for what left public view.

const NOW = new Date('2025-06-14T10:00:00Z');

const id = {
  stays: competitionId(1),
  unpublished: competitionId(2),
  deleted: competitionId(3),
  republished: competitionId(4),
  draftDeleted: competitionId(5),
  unpublishedThenDeleted: competitionId(6),
  draft: competitionId(7),
  slugRemovals: competitionId(8),
};

const published = (n: number, slug = `competition-${n}`) =>
  new History(competitionId(n))
    .at('2025-03-01T10:00:00Z', 'competition.drafted', competitionDetails(n, { slug }))
    .at('2025-03-02T10:00:00Z', 'competition.published', {});

const histories = {
  stays: published(1),
  unpublished: published(2).at('2025-04-01T12:00:00+02:00', 'competition.unpublished', {}),
  deleted: published(3).at('2025-04-02T10:00:00Z', 'competition.deleted', {}),
  republished: published(4)
    .at('2025-04-03T10:00:00Z', 'competition.unpublished', {})
    .at('2025-04-04T10:00:00Z', 'competition.published', {}),
  draftDeleted: new History(id.draftDeleted)
    .at('2025-03-01T10:00:00Z', 'competition.drafted', competitionDetails(5))
    .at('2025-04-05T10:00:00Z', 'competition.deleted', {}),
  unpublishedThenDeleted: published(6)
    .at('2025-04-06T10:00:00Z', 'competition.unpublished', {})
    .at('2025-04-07T10:00:00Z', 'competition.deleted', {}),
  draft: new History(id.draft).at('2025-03-01T10:00:00Z', 'competition.drafted', competitionDetails(7)),
  slugRemovals: published(8, 'removals'),
};

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_removals');
  await database.project(
    Object.values(histories).flatMap((h) => h.events),
    NOW,
  );
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

async function removals(query = ''): Promise<CompetitionRemovalList & { headers: Headers }> {
  const res = await api.request(`/api/v1/competitions/removals${query === '' ? '' : `?${query}`}`);
  expect(res.status, res.text).toBe(200);
  expectMatchesSchema(res.json, CompetitionRemovalListEnvelope);
  return { ...(res.json as CompetitionRemovalList), headers: res.headers };
}

describe('GET /competitions/removals', () => {
  it('lists the competitions that left public view, oldest removal first, with the instant and the reason', async () => {
    const body = await removals();
    expect(body.data).toEqual([
      { id: id.unpublished, slug: 'competition-2', removedAt: '2025-04-01T10:00:00.000Z', reason: 'unpublished' },
      { id: id.deleted, slug: 'competition-3', removedAt: '2025-04-02T10:00:00.000Z', reason: 'deleted' },
      // Deleted after it had left view: nothing visible changed at the deletion.
      { id: id.unpublishedThenDeleted, slug: 'competition-6', removedAt: '2025-04-06T10:00:00.000Z', reason: 'unpublished' },
    ]);
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, hasNextPage: false, hasPreviousPage: false });
    expect(body.links).toEqual({ self: `${API}/competitions/removals?limit=20&page=1`, next: null, previous: null });
  });

  it('keeps the removals at or after updatedSince (any offset), uncached', async () => {
    const body = await removals('updatedSince=2025-04-02T12:00:00%2B02:00');
    expect(body.data.map((r) => r.id)).toEqual([id.deleted, id.unpublishedThenDeleted]);
    expect(body.headers.get('cache-control')).toBe('no-store');
    expect(body.headers.get('x-cache')).toBe('BYPASS');
    expect((await removals('updatedSince=2025-04-06T10:00:00.001Z')).data).toEqual([]);
  });

  it('pages in removal order with ready-made links, without overlap', async () => {
    const first = await removals('limit=2');
    const second = await removals('limit=2&page=2');
    expect([...first.data, ...second.data].map((r) => r.id)).toEqual([id.unpublished, id.deleted, id.unpublishedThenDeleted]);
    expect(first.links).toEqual({
      self: `${API}/competitions/removals?limit=2&page=1`,
      next: `${API}/competitions/removals?limit=2&page=2`,
      previous: null,
    });
    expect(second.meta).toMatchObject({ page: 2, total: 3, totalPages: 2, hasNextPage: false, hasPreviousPage: true });
  });

  it('is cached like the list without updatedSince (public, HIT on the second request)', async () => {
    expect((await removals('limit=3')).headers.get('x-cache')).toBe('MISS');
    const hit = await removals('limit=3');
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('validates its query with the usual 400 naming each parameter', async () => {
    const res = await api.request('/api/v1/competitions/removals?updatedSince=2025-04-01&limit=0&country=LV');
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([
      'updatedSince: must be an RFC 3339 date-time with a time zone, e.g. 2025-03-01T12:00:00Z (got "2025-04-01")',
      'limit: must be an integer from 1 to 100 (got 0)',
      'country: unknown parameter',
    ]);
  });

  it('is a literal path: the competition whose slug is "removals" is reached by its id', async () => {
    const detail = await api.request(`/api/v1/competitions/${id.slugRemovals}`);
    expect(detail.status).toBe(200);
    expect(detail.json.data.slug).toBe('removals');
  });

  it('leaves what v1 clients receive unchanged: no internal field in list or detail bodies', async () => {
    const res = await api.request('/api/v1/competitions?updatedSince=2025-01-01T00:00:00Z&limit=100');
    expectMatchesSchema(res.json, CompetitionListEnvelope);
    expect(idsIn(res.json).sort()).toEqual([id.stays, id.republished, id.slugRemovals].sort());
    expect(res.text).not.toContain('"removal"');
    const detail = await api.request(`/api/v1/competitions/${id.republished}`);
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain('"removal"');
  });

  it('is served by the removal index, examining only the removed competitions', async () => {
    const collection = database.db.collection(collectionName('competitions', 1));
    const indexes = (await collection.listIndexes().toArray()).map((index) => String(index.name));
    expect(indexes).toContain(REMOVALS_INDEX_NAME);
    const explained = await collection
      .find(removalsFilter('2025-04-02T00:00:00Z'))
      .sort({ 'removal.at': 1, _id: 1 })
      .explain('executionStats');
    const plan = JSON.stringify(explained.queryPlanner);
    expect(plan).toContain('IXSCAN');
    expect(plan).toContain(REMOVALS_INDEX_NAME);
    expect(explained.executionStats).toMatchObject({ nReturned: 2, totalDocsExamined: 2 });
  });
});

describe('a sync loop with removals', () => {
  it('applies the changes and drops the removals since the last cursor, ending with what /competitions lists', async () => {
    // The client's copy after a full sync at the cursor (a past instant, e.g. X-Data-Current-At).
    const cursor = '2025-05-01T00:00:00.000Z';
    const copy = new Set([id.stays, id.republished, id.slugRemovals]);

    // Later: one competition goes, one comes back, one is published for the first time.
    histories.stays.at('2025-05-02T10:00:00Z', 'competition.unpublished', {});
    histories.unpublished.at('2025-05-03T10:00:00Z', 'competition.published', {});
    histories.draft.at('2025-05-04T10:00:00Z', 'competition.published', {});
    await database.project(
      [histories.stays, histories.unpublished, histories.draft].map((h) => h.events.at(-1)!),
      NOW,
    );
    await afterFreshnessBound();

    const changed = await api.request(`/api/v1/competitions?updatedSince=${cursor}&sort=updatedAt&limit=100`);
    const removed = await removals(`updatedSince=${cursor}`);
    for (const competitionId of idsIn(changed.json)) copy.add(competitionId);
    for (const removal of removed.data) copy.delete(removal.id);

    expect(removed.data).toEqual([{ id: id.stays, slug: 'competition-1', removedAt: '2025-05-02T10:00:00.000Z', reason: 'unpublished' }]);
    expect(idsIn(changed.json)).toEqual([id.unpublished, id.draft]);
    const everything = await api.request('/api/v1/competitions?limit=100');
    expect([...copy].sort()).toEqual(idsIn(everything.json).sort());
    // Published again: no longer reported as removed, whatever the cursor.
    expect((await removals()).data.map((r) => r.id)).not.toContain(id.unpublished);
  });
});
