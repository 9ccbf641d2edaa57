// Answers within a memory budget (decisions.md, "Hostile input": answers), on a real API process
// launched as every launch is (api/main.ts with the heap flags of scripts/api.node-flags): a city
// whose published competitions each carry the largest description one event can bring (the
// broker's message limit), and cities whose names are long enough to take /filters past the
// answer budget, fetched in parallel through every list, the calendar and /filters by one client,
// keeps the process under its container's memory limit, and another client is answered meanwhile.
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_MEMORY_FLAGS } from '../../api/memoryBound.ts';
import { recordCurrentAt } from '../../services/mongo/index.ts';
import { sampleRss } from '../adversarial/processRss.ts';
import { NEAR_LIMIT_BYTES } from '../adversarial/hostileEvents.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { testServers } from '../support/isolation.ts';
import { waitFor } from '../support/waitFor.ts';
import { openDatabase, PUBLIC_URL, SITE_URL, type Database } from './apiHarness.ts';
import { History, LV, competitionDetails, competitionId, venue } from './eventBuilders.ts';

/** The memory limit docker-compose gives an API container. */
const CONTAINER_LIMIT_MB = 512;
const COMPETITIONS = 30;
const NOW = new Date();

/** Markdown of about `bytes` bytes (UTF-8), paragraphs of words, headings and emphasis: what an organizer might paste. */
function longDescription(n: number, bytes: number): string {
  const paragraph = `## Day ${n}\n\nRīgas **Latin** un *Standard* sacensības: fināli, dzīvā mūzika, ${'deju grīda '.repeat(40)}\n\n`;
  return paragraph.repeat(Math.floor(bytes / Buffer.byteLength(paragraph)));
}

function competitionsOfOneCity(): History[] {
  return Array.from({ length: COMPETITIONS }, (_, i) => {
    const day = String(1 + (i % 28)).padStart(2, '0');
    return new History(competitionId(500 + i))
      .at(
        '2025-01-01T10:00:00Z',
        'competition.drafted',
        competitionDetails(500 + i, {
          slug: `riga-large-${i}`,
          name: `Riga Large ${i}`,
          // Room for the rest of the event within the broker's limit.
          descriptionFormatted: longDescription(i, NEAR_LIMIT_BYTES - 20_000),
          dates: { start: `2031-03-${day}`, end: `2031-03-${day}` },
          location: venue(LV, 'Rīga', `Hall ${i}`),
        }),
      )
      .at('2025-01-01T10:01:00Z', 'competition.published', {});
  });
}

interface Fetched {
  status: number;
  bytes: number;
  /** sha-256 of the body as received. */
  digest: string;
  headers: Record<string, string | string[] | undefined>;
  ms: number;
}

/** One GET read to its end without keeping the body (a page here is tens of MB). */
function fetchCounted(origin: string, path: string, headers: Record<string, string> = {}, localAddress = '127.0.0.1'): Promise<Fetched> {
  const { hostname, port } = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: `/api/v1${path}`, headers, localAddress }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes, digest: hash.digest('hex'), headers: res.headers, ms: performance.now() - started }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Competitions each in a city of its own whose name is long authored text: /filters lists every city, so it passes the answer budget. */
const LONG_CITIES = 4;
const LONG_CITY_CHARS = 300_000;
const ANSWER_BUDGET = 1_048_576;

function competitionsInLongCities(): History[] {
  return Array.from({ length: LONG_CITIES }, (_, i) =>
    new History(competitionId(600 + i))
      .at(
        '2025-01-01T10:00:00Z',
        'competition.drafted',
        competitionDetails(600 + i, {
          slug: `long-city-${i}`,
          name: `Long City ${i}`,
          dates: { start: '2031-04-01', end: '2031-04-01' },
          location: venue(LV, `${i} ${'Jaunciems '.repeat(LONG_CITY_CHARS / 10)}`),
        }),
      )
      .at('2025-01-01T10:01:00Z', 'competition.published', {}),
  );
}

let database: Database;
let api: NodeProcess;
let origin: string;

beforeAll(async () => {
  database = await openDatabase('api_large_answers');
  await database.project(
    [...competitionsOfOneCity(), ...competitionsInLongCities()].flatMap((history) => history.events),
    NOW,
  );
  await recordCurrentAt(database.db, 1, NOW);
  const [port, opsPort] = await freePorts(2);
  origin = `http://127.0.0.1:${port}`;
  // The flags go before the entry, as every launch writes them (spawnNode runs `node <first> <rest>`).
  const [firstFlag = '', ...otherFlags] = API_MEMORY_FLAGS;
  api = spawnNode(firstFlag, [...otherFlags, 'api/main.ts'], {
    ...process.env,
    NODE_OPTIONS: '',
    MONGO_URL: testServers().mongoUrl,
    MONGO_DB: database.db.databaseName,
    API_PORT: String(port),
    API_OPS_PORT: String(opsPort),
    API_PUBLIC_URL: PUBLIC_URL,
    SITE_URL,
    RATE_LIMIT_MAX: '1000000',
    LOG_LEVEL: 'warn',
  });
  await waitFor(async () => {
    const ready = await fetch(`${origin}/health/ready`);
    if (!ready.ok) throw new Error(`not ready: ${ready.status}`);
  }, 60_000);
}, 300_000);

afterAll(async () => {
  await api?.stop();
  await database?.drop();
});

describe('the API process under the largest answers the data allows', () => {
  it('stays under its container limit and keeps answering other clients', async () => {
    const rss = sampleRss(api.child.pid!, 100);
    const sorts = ['startDate', 'name', 'updatedAt', 'createdAt'];
    const large = [
      ...sorts.flatMap((sort) => ['asc', 'desc'].map((order) => `/competitions?city=R%C4%ABga&limit=100&sort=${sort}&order=${order}`)),
      '/competitions.ics?city=R%C4%ABga',
      '/competitions.ics?city=R%C4%ABga&sort=name',
      '/competitions.ics?country=LV',
      '/competitions.ics',
      '/filters',
      '/competitions?limit=100&include=categories',
    ];
    const ordinary: Fetched[] = [];
    let flooding = true;
    const others = (async () => {
      while (flooding) {
        for (const path of ['/competitions?limit=5', '/dancers?limit=5', '/clubs?limit=5', '/'])
          ordinary.push(await fetchCounted(origin, path, {}, '127.0.0.2'));
      }
    })();
    const codings: Array<Record<string, string>> = [{}, { 'Accept-Encoding': 'gzip' }, {}, { 'Accept-Encoding': 'br' }];
    const rounds = await Promise.all(
      [0, 1].flatMap((round) => large.map((path, i) => fetchCounted(origin, path, codings[(i + round) % codings.length]))),
    );
    flooding = false;
    await others;
    rss.stop();

    const p99 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0;
    process.stdout.write(
      `largest answers: ${rounds.filter((r) => r.status === 200).length} of ${rounds.length} served (${rounds.filter((r) => r.status === 503).length} shed), ` +
        `peak RSS ${rss.peakMb().toFixed(0)} MB; ordinary clients ${ordinary.length} requests, p99 ${p99(ordinary.map((r) => r.ms)).toFixed(0)} ms\n`,
    );
    expect(api.child.exitCode, api.output()).toBeNull();
    for (const reply of rounds) expect([200, 503], `${reply.status}`).toContain(reply.status);
    const served = rounds.filter((reply) => reply.status === 200);
    // At least the one client's share of the work slots (API_WORK_PER_CLIENT); the rest may be shed with 503 and Retry-After.
    expect(served.length).toBeGreaterThanOrEqual(2);
    // A page of the city holds every description whole: authored text is never cut.
    const page = served.find((reply) => reply.headers['content-encoding'] === undefined && reply.headers['content-type']?.includes('json'));
    expect(page?.bytes).toBeGreaterThan(COMPETITIONS * (NEAR_LIMIT_BYTES - 20_000));
    for (const refused of rounds.filter((reply) => reply.status === 503)) expect(refused.headers['retry-after']).toBeDefined();
    expect(ordinary.length).toBeGreaterThan(0);
    for (const reply of ordinary) expect([200, 503]).toContain(reply.status);
    expect(ordinary.filter((reply) => reply.status === 200).length).toBeGreaterThan(ordinary.length / 2);
    expect(rss.peakMb(), `RSS series ${rss.series().map(Math.round).join(' ')}`).toBeLessThan(CONTAINER_LIMIT_MB);
  }, 300_000);

  it('streams /filters past the answer budget: every city whole, never the body as one string', async () => {
    const filters = await fetchCounted(origin, '/filters');
    expect(filters.status).toBe(200);
    expect(filters.bytes).toBeGreaterThan(Math.max(ANSWER_BUDGET, LONG_CITIES * LONG_CITY_CHARS));
    // Streamed (no length known before the end), with the streamed answer's validator; in gzip too.
    expect(filters.headers['content-length']).toBeUndefined();
    expect(filters.headers.etag).toMatch(/^W\/"s-/);
    const again = await fetchCounted(origin, '/filters');
    expect(again.digest).toBe(filters.digest);
    const gzip = await fetchCounted(origin, '/filters', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.bytes).toBeLessThan(filters.bytes);
  }, 120_000);

  it('gives a streamed page the same bytes each time and a validator that answers 304 without the body', async () => {
    const path = '/competitions?city=R%C4%ABga&limit=100&sort=name&order=asc';
    const first = await fetchCounted(origin, path);
    const second = await fetchCounted(origin, path);
    expect(first.status).toBe(200);
    expect(second.digest).toBe(first.digest);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['content-length']).toBeUndefined();
    expect(first.headers.etag).toMatch(/^W\/"s-/);
    // The validator names the data version, the URL and the TTL's time slot: revalidating right
    // after a fetch answers 304 unless the slot turned in between, so one of two tries does.
    const revalidated: Fetched[] = [];
    for (let attempt = 0; attempt < 2 && !revalidated.some((reply) => reply.status === 304); attempt++) {
      const fresh = await fetchCounted(origin, path, { 'Accept-Encoding': 'gzip' });
      revalidated.push(await fetchCounted(origin, path, { 'If-None-Match': fresh.headers.etag as string }));
    }
    const notModified = revalidated.find((reply) => reply.status === 304);
    expect(notModified?.bytes).toBe(0);
    expect(notModified?.headers.etag).toMatch(/^W\/"s-/);
  }, 120_000);
});
