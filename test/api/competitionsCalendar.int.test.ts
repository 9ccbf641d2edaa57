import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_FEED_MAX_EVENTS, ErrorEnvelope } from '../../schemas/api/index.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import { projectEvents } from '../../projector/write/projectEvents.ts';
import { readCalendar, type ReadCalendar } from '../support/readCalendar.ts';
import { PROJECTION, SITE_URL, afterFreshnessBound, openDatabase, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, ids, riga } from './calendarSeed.ts';
import { History, LV, competitionDetails, competitionId, venue } from './eventBuilders.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';
import { startApiOnPort } from './startApiOnPort.ts';

// The feed over HTTP on the real database, read back with ical.js (not the library that wrote
// it), and compared with what `/competitions` answers for the same filters.

interface RawReply {
  status: number;
  headers: Headers;
  text: string;
}

interface RawApi {
  get(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<RawReply>;
  close(): Promise<void>;
}

/** The app in process, answering raw text (the harness's request parses every body as JSON). */
async function startRawApi(database: Database, now: Date): Promise<RawApi> {
  const { origin, close } = await startApiOnPort(database.db, now);
  return {
    get: async (path, init = {}) => {
      const res = await fetch(`${origin}/api/v1${path}`, { method: init.method ?? 'GET', headers: init.headers });
      return { status: res.status, headers: res.headers, text: await res.text() };
    },
    close,
  };
}

let database: Database;
let api: RawApi;

beforeAll(async () => {
  database = await openDatabase('api_calendar');
  await database.project(calendarEvents, NOW);
  api = await startRawApi(database, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

async function feed(query = ''): Promise<{ reply: RawReply; calendar: ReadCalendar }> {
  const reply = await api.get(`/competitions.ics${query === '' ? '' : `?${query}`}`);
  expect(reply.status, `${query}: ${reply.text}`).toBe(200);
  expect(reply.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  return { reply, calendar: readCalendar(reply.text) };
}

interface ListedCompetition {
  id: string;
  updatedAt: string;
  links: { web: string };
}

async function listed(query: string): Promise<ListedCompetition[]> {
  const reply = await api.get(`/competitions?limit=100${query === '' ? '' : `&${query}`}`);
  expect(reply.status, reply.text).toBe(200);
  return (JSON.parse(reply.text) as { data: ListedCompetition[] }).data;
}

const uid = (id: string): string => `${id}@${new URL(SITE_URL).host}`;
const idOfUid = (value: string): string => value.split('@')[0] ?? '';

describe('GET /competitions.ics', () => {
  it('has one all-day event per published competition (never drafts or unpublished), latest start first', async () => {
    const { calendar } = await feed();
    expect(calendar.version).toBe('2.0');
    const byStartDesc = [...(await listed('order=desc'))].map((c) => c.id);
    expect(calendar.events.map((e) => idOfUid(e.uid))).toEqual(byStartDesc);
    expect(calendar.events.map((e) => idOfUid(e.uid))).not.toContain(ids.draft);
    expect(calendar.events.map((e) => idOfUid(e.uid))).not.toContain(ids.unpublished);
    expect(calendar.description).toBe('9 published competitions.');
  });

  it('maps a competition: exclusive DTEND, stable UID, name, location, links.web as URL, LAST-MODIFIED from updatedAt', async () => {
    const { calendar } = await feed('search=riga%20open');
    const [json] = await listed('search=riga%20open');
    expect(calendar.events).toEqual([
      {
        uid: uid(ids.riga),
        summary: 'Riga Open 2025',
        location: 'Arena Riga, Rīga, Latvia',
        url: json?.links.web,
        description: 'Two days of Latin and Standard in the Arena Riga.',
        start: '2025-06-14',
        end: '2025-06-16',
        allDay: true,
        lastModified: json?.updatedAt,
        stamp: json?.updatedAt,
        created: '2025-03-01T10:00:00.000Z',
        transparency: 'TRANSPARENT',
      },
    ]);
    expect(json?.links.web).toBe(`${SITE_URL}/competitions/riga-open-2025`);
  });

  it('takes every filter of /competitions and finds the same competitions', async () => {
    const queries = [
      'country=LV',
      'country=latvia',
      'countryId=68',
      'city=r%C4%AB',
      'status=completed',
      'status=open,completed',
      'type=national',
      'registrationStatus=closed',
      'registrationOpen=true',
      'registrationOpen=false',
      'period=upcoming',
      'period=ongoing',
      'period=past',
      'dateFrom=2025-06-14&dateTo=2025-06-30',
      'updatedSince=2025-05-01T00:00:00Z',
      'search=cup',
      'search=nothing-like-this',
      'sort=name&order=asc',
      'sort=updatedAt',
    ];
    for (const query of queries) {
      const expected = (await listed(query.includes('order=') ? query : `${query}&order=desc`)).map((c) => c.id);
      const { calendar } = await feed(query);
      expect(
        calendar.events.map((e) => idOfUid(e.uid)),
        query,
      ).toEqual(expected);
    }
  });

  it('answers a bad filter with the same 400 envelope and details as /competitions', async () => {
    const bad = 'status=done&dateFrom=2025-02-30&search=a&country=&registrationOpen=yes&cityId=1&sort=price';
    const ics = await api.get(`/competitions.ics?${bad}`);
    const list = await api.get(`/competitions?${bad}`);
    expect(ics.status).toBe(400);
    expect(ics.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = JSON.parse(ics.text) as { error: { type: string; details: string[] } };
    expectMatchesSchema(body, ErrorEnvelope);
    expect(body.error.type).toBe('INVALID_REQUEST');
    expect(body.error.details).toEqual((JSON.parse(list.text) as { error: { details: string[] } }).error.details);
    expect(body.error.details).toHaveLength(7);
  });

  it('refuses the pagination and include parameters with a 400 naming each', async () => {
    const reply = await api.get('/competitions.ics?page=2&limit=10&include=categories&country=LV');
    expect(reply.status).toBe(400);
    expect((JSON.parse(reply.text) as { error: { details: string[] } }).error.details).toEqual([
      `page: not accepted on /competitions.ics (the feed is not paginated: it holds the first ${CALENDAR_FEED_MAX_EVENTS.toLocaleString('en')} matching competitions in the requested order)`,
      `limit: not accepted on /competitions.ics (the feed is not paginated: it holds the first ${CALENDAR_FEED_MAX_EVENTS.toLocaleString('en')} matching competitions in the requested order)`,
      'include: not accepted on /competitions.ics (an event carries no categories or entry counts)',
    ]);
  });

  it('goes through the ETag, 304, cache, CORS and rate-limit path of every response', async () => {
    const first = await api.get('/competitions.ics?country=EE', { headers: { Origin: 'https://someone.example' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(first.headers.get('x-request-id')).toBeTruthy();
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\//);

    const hit = await api.get('/competitions.ics?country=EE');
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(hit.headers.get('etag')).toBe(etag);
    expect(hit.text).toBe(first.text);

    const notModified = await api.get('/competitions.ics?country=EE', { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');

    const head = await api.get('/competitions.ics?country=EE', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(head.text).toBe('');

    const sync = await api.get('/competitions.ics?updatedSince=2025-01-01T00:00:00Z');
    expect(sync.headers.get('x-cache')).toBe('BYPASS');
    expect(sync.headers.get('cache-control')).toBe('no-store');

    expect((await api.get('/competitions.ics', { method: 'POST' })).status).toBe(405);
  });

  it('shows an edit on the next request (the cached feed is invalidated by the write)', async () => {
    const before = await feed('country=LV');
    expect((await api.get('/competitions.ics?country=LV')).headers.get('x-cache')).toBe('HIT');
    riga.at('2025-06-14T09:30:00Z', 'competition.details_changed', {
      name: 'Riga Open 2025 (WDSF)',
      dates: { start: '2025-06-14', end: '2025-06-16' },
    });
    await database.project(riga.events.slice(-1), NOW);
    await afterFreshnessBound();
    const after = await feed('country=LV');
    expect(after.reply.headers.get('x-cache')).toBe('MISS');
    expect(after.reply.headers.get('etag')).not.toBe(before.reply.headers.get('etag'));
    const event = after.calendar.events.find((e) => e.uid === uid(ids.riga));
    expect(event).toMatchObject({
      summary: 'Riga Open 2025 (WDSF)',
      start: '2025-06-14',
      end: '2025-06-17',
      lastModified: '2025-06-14T09:30:00.000Z',
    });
  });
});

describe('GET /competitions.ics past its bound', () => {
  const extra = 5;
  let big: Database;
  let bigApi: RawApi;

  beforeAll(async () => {
    big = await openDatabase('api_calendar_bound');
    const events: DomainEvent[] = [];
    for (let n = 1; n <= CALENDAR_FEED_MAX_EVENTS + extra; n += 1) {
      // Start days spread over 2025-2027, so the bound keeps the latest-starting ones.
      const start = new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
      const history = new History(competitionId(100_000 + n))
        .at(
          '2025-01-01T00:00:00Z',
          'competition.drafted',
          competitionDetails(n, { dates: { start, end: start }, location: venue(LV, 'Rīga') }),
        )
        .at('2025-01-01T00:00:01Z', 'competition.published', {});
      events.push(...history.events);
    }
    const store = new MongoProjectionStore(big.db, 1);
    for (let i = 0; i < events.length; i += 500) await projectEvents(events.slice(i, i + 500), store, PROJECTION, NOW);
    bigApi = await startRawApi(big, NOW);
  }, 180_000);
  afterAll(async () => {
    await bigApi?.close();
    await big?.drop();
  });

  it(`holds the first ${CALENDAR_FEED_MAX_EVENTS} in the requested order and says how many matched`, async () => {
    const reply = await bigApi.get('/competitions.ics');
    expect(reply.status).toBe(200);
    const calendar = readCalendar(reply.text);
    expect(calendar.events).toHaveLength(CALENDAR_FEED_MAX_EVENTS);
    expect(calendar.events[0]?.uid).toBe(uid(competitionId(100_000 + CALENDAR_FEED_MAX_EVENTS + extra)));
    expect(calendar.events.at(-1)?.uid).toBe(uid(competitionId(100_000 + extra + 1)));
    expect(calendar.description).toBe(
      `The first 1,000 of ${(CALENDAR_FEED_MAX_EVENTS + extra).toLocaleString('en')} matching published competitions (by startDate desc); narrow the filters (e.g. period=upcoming or country) to get the others.`,
    );
    const ascending = readCalendar((await bigApi.get('/competitions.ics?order=asc')).text);
    expect(ascending.events[0]?.uid).toBe(uid(competitionId(100_001)));
    const narrowed = readCalendar((await bigApi.get('/competitions.ics?dateTo=2025-01-04')).text);
    expect(narrowed.events.map((e) => e.start)).toEqual(['2025-01-04', '2025-01-03', '2025-01-02']);
    expect(narrowed.description).toBe('3 published competitions.');
  });
});
