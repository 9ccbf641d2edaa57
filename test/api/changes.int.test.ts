import { waitFor } from '../support/waitFor.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeListEnvelope } from '../../schemas/api/index.ts';
import type { ChangeListEnvelope as ChangeList } from '../../schemas/api/index.ts';
import { changeCollections, trimChanges } from '../../services/changes/index.ts';
import { API, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { EE, History, LV, competitionDetails, competitionId, dancerGrant, person, personId, venue } from './eventBuilders.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';

// The change feed on the real database, fed by the projector's writes as they are made live.

const NOW = new Date('2025-06-14T10:00:00Z');

const riga = new History(competitionId(1))
  .at('2025-03-01T10:00:00Z', 'competition.drafted', competitionDetails(1, { location: venue(LV, 'Riga') }))
  .at('2025-03-02T10:00:00Z', 'competition.published', {});
const tallinn = new History(competitionId(2))
  .at('2025-03-01T10:00:00Z', 'competition.drafted', competitionDetails(2, { location: venue(EE, 'Tallinn') }))
  .at('2025-03-02T10:00:00Z', 'competition.published', {});
const anna = new History(personId(1))
  .at('2025-02-01T12:00:00Z', 'person.registered', person('Anna', 'Ozola', LV))
  .at('2025-02-01T12:01:00Z', 'person.role_granted', dancerGrant('2025-02-01T12:01:00Z', '2026-03-01'));

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_changes');
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

async function page(query: string): Promise<ChangeList> {
  const res = await api.request(`/api/v1/changes${query === '' ? '' : `?${query}`}`);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expectMatchesSchema(res.json, ChangeListEnvelope);
  return res.json as ChangeList;
}

const summary = (body: ChangeList) => body.data.map(({ type, id, action }) => `${type} ${id} ${action}`);

/**
 * The page once it lists `expected`: a change is released within the freshness bound after its
 * batch commits (docs/calling.md, "The change feed"), not at the instant the projection returns.
 */
async function pageListing(query: string, expected: readonly string[]): Promise<ChangeList> {
  return waitFor(
    async () => {
      const body = await page(query);
      expect(summary(body)).toEqual(expected);
      return body;
    },
    10_000,
    50,
  );
}

/** Longer than the freshness bound the API releases changes within: what is not listed by then never will be. */
const SETTLED_MS = 500;

describe('GET /changes', () => {
  it('announces each visible version once, in order, with its URL, and nothing for a replay', async () => {
    const empty = await page('');
    expect(empty.data).toEqual([]);
    const start = empty.meta.latest;
    await database.project([...riga.events, ...anna.events], NOW);
    // The draft was never public: its drafting announces nothing; its publication creates it.
    const first = await pageListing(`after=${start}`, [`competition ${competitionId(1)} created`, `dancer ${personId(1)} created`]);
    expect(first.data[0]!.url).toBe(`${API}/competitions/${competitionId(1)}`);
    expect(first.data[1]!.url).toBeNull();
    expect(first.links.next).toBe(`${API}/changes?after=${first.meta.last}&limit=20`);
    // A crash's replay rewrites the same documents: no change.
    await database.project([...riga.events, ...anna.events], NOW);
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS));
    expect((await page(`after=${first.meta.last}`)).data).toEqual([]);
    riga.at('2025-03-03T10:00:00Z', 'competition.unpublished', {});
    await database.project([...tallinn.events, ...riga.events.slice(2)], NOW);
    const second = await pageListing(`after=${first.meta.last}`, [
      `competition ${competitionId(2)} created`,
      `competition ${competitionId(1)} removed`,
    ]);
    const cursors = [...first.data, ...second.data].map((change) => Number(change.cursor.split('.')[1]));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
  });

  it('filters by type and by country as the listings do, moving meta.last past what it skips', async () => {
    const latvian = await page('country=latvia');
    expect(summary(latvian)).toEqual([
      `competition ${competitionId(1)} created`,
      `dancer ${personId(1)} created`,
      `competition ${competitionId(1)} removed`,
    ]);
    expect(summary(await page(`countryId=${EE.id}`))).toEqual([`competition ${competitionId(2)} created`]);
    const dancers = await page('type=dancer');
    expect(summary(dancers)).toEqual([`dancer ${personId(1)} created`]);
    expect(dancers.meta.last).toBe(dancers.meta.latest);
    expect(dancers.meta.hasMore).toBe(false);
  });

  it('pages with limit and links.next', async () => {
    const one = await page('limit=1');
    expect(one.data).toHaveLength(1);
    expect(one.meta.hasMore).toBe(true);
    const next = await api.request(one.links.next.replace(API, '/api/v1'));
    expect((next.json as ChangeList).data[0]!.cursor).not.toBe(one.data[0]!.cursor);
  });

  it('holds a long poll until a change comes', async () => {
    const { meta } = await page('');
    const waiting = page(`after=${meta.latest}&wait=10`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    tallinn.at('2025-03-04T10:00:00Z', 'competition.details_changed', { name: 'Tallinn Open' });
    await database.project(tallinn.events.slice(2), NOW);
    const answered = await waiting;
    expect(summary(answered)).toEqual([`competition ${competitionId(2)} changed`]);
  });

  it('answers 400 naming each bad parameter and 410 for a cursor the feed no longer keeps', async () => {
    const bad = await api.request('/api/v1/changes?type=person&wait=31&after=x');
    expect(bad.status).toBe(400);
    expect((bad.json.error.details as string[]).map((d) => d.split(':')[0])).toEqual(['type', 'wait', 'after']);
    const other = await api.request('/api/v1/changes?after=99.1');
    expect(other.status).toBe(410);
    expect(other.json.error.type).toBe('CURSOR_EXPIRED');
    const { meta } = await page('');
    await trimChanges(database.db, changeCollections(1), { maxAgeMs: 0, maxCount: 1_000_000 }, new Date(Date.now() + 1000));
    // An instance reads the trimmed position at least once a second (and at once when a read finds
    // changes missing); until then it may still serve trimmed changes it holds in memory, never skip one.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const trimmed = await api.request(`/api/v1/changes?after=1.1`);
    expect(trimmed.status, trimmed.text).toBe(410);
    expect(trimmed.json.error.details[0]).toContain('updatedSince');
    expect((await page(`after=${meta.latest}`)).data).toEqual([]);
  });
});

describe('GET /changes as Server-Sent Events', () => {
  /** Reads a stream's text until `until` holds of it (or the stream ends). */
  async function readUntil(response: Response, until: (text: string) => boolean): Promise<string> {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!until(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await reader.cancel();
    return text;
  }

  it('streams each change with its cursor as the event id, resumes from Last-Event-ID, and bounds the streams per client', async () => {
    const { meta } = await page('');
    const open = (headers: Record<string, string> = {}) =>
      fetch(`${api.origin}/api/v1/changes?type=competition`, { headers: { Accept: 'text/event-stream', ...headers } });
    const stream = await open({ 'Last-Event-ID': meta.latest });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const streams = await Promise.all([open(), open(), open()]);
    const refused = await open();
    expect(refused.status).toBe(429);
    await Promise.all(streams.map((s) => s.body!.cancel()));
    tallinn.at('2025-03-05T10:00:00Z', 'competition.details_changed', { name: 'Tallinn Cup' });
    await database.project(tallinn.events.slice(-1), NOW);
    const text = await readUntil(stream, (t) => t.includes('event: change'));
    const id = /id: (\S+)/.exec(text)![1]!;
    expect(JSON.parse(/data: (.*)/.exec(text.slice(text.indexOf('event: change')))![1]!)).toMatchObject({
      cursor: id,
      type: 'competition',
      id: competitionId(2),
      action: 'changed',
    });
    const expired = await open({ 'Last-Event-ID': '99.1' });
    expect(expired.status).toBe(410);
  });
});
