import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { parseLabels, parsePrometheusText } from '../../projector/status/readProjectorStatus.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { msUntilStatus } from '../faults/support/httpProbe.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { testServers } from '../support/isolation.ts';
import { openDatabase, startApi, type Database } from './apiHarness.ts';
import { History, LV, competitionDetails, competitionId, venue } from './eventBuilders.ts';

// The real API process (api/main.ts) shares its uncached work among clients (decisions.md,
// "Hostile input": a bound on concurrent uncached work, 503 with Retry-After past it): one
// client holds at most API_WORK_PER_CLIENT of the work slots and has at most
// API_WORK_QUEUE_PER_CLIENT requests waiting, and freed slots go to the waiting clients in turn.
// A search runs within API_SEARCH_TIMEOUT_MS, shorter than API_QUERY_TIMEOUT_MS. Each client
// below has a loopback address of its own (127.0.0.x): the rate limit's key, and the share's.

const NOW = new Date('2025-06-14T10:00:00Z');
const apiEntry = fileURLToPath(new URL('../../api/main.ts', import.meta.url));
const COMPETITIONS = 16;
const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua';
/** Uncached every time (`updatedSince` bypasses the cache): a page of every competition, several MB. */
const FLOOD_PAGE = `/api/v1/competitions?limit=${COMPETITIONS}&updatedSince=2000-01-01T00:00:00Z`;
const PER_CLIENT_QUEUE = 4;
const FLOOD = 30;

let database: Database;
let api: NodeProcess;
let port: number;
let opsPort: number;

function largeCompetitions(): DomainEvent[] {
  const text = `${WORDS} `.repeat(Math.ceil(400_000 / (WORDS.length + 1)));
  return Array.from({ length: COMPETITIONS }, (_, i) =>
    new History(competitionId(300 + i))
      .at(
        '2025-03-01T10:00:00Z',
        'competition.drafted',
        competitionDetails(300 + i, { descriptionFormatted: `Round ${i}: ${text}`, location: venue(LV, 'Rīga') }),
      )
      .at('2025-03-02T10:00:00Z', 'competition.published', {}),
  ).flatMap((history) => history.events);
}

beforeAll(async () => {
  database = await openDatabase('api_fair_share');
  await database.project(largeCompetitions(), NOW);
  [port, opsPort] = await freePorts(2);
  api = spawnNode(apiEntry, [], {
    ...process.env,
    LOG_LEVEL: 'warn',
    MONGO_URL: testServers().mongoUrl,
    MONGO_DB: database.db.databaseName,
    REDIS_URL: '',
    API_HOST: '127.0.0.1',
    API_PORT: String(port),
    API_OPS_PORT: String(opsPort),
    API_PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_MAX: '1000000',
    API_WORK_CONCURRENCY: '2',
    API_WORK_PER_CLIENT: '1',
    API_WORK_QUEUE_LENGTH: '64',
    API_WORK_QUEUE_PER_CLIENT: String(PER_CLIENT_QUEUE),
    API_WORK_QUEUE_TIMEOUT_MS: '60000',
  });
  await msUntilStatus(`http://127.0.0.1:${opsPort}/health/ready`, 200, 60_000).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${api.output()}`);
  });
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await database?.drop();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** performance.now() when its last byte arrived. */
  endedAt: number;
}

/** One GET on a connection of its own from `localAddress`; the body is counted, kept only when short. */
function get(path: string, localAddress: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        if (body.length < 10_000) body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, endedAt: performance.now() }));
      res.on('error', reject);
    });
    outgoing.setTimeout(60_000, () => outgoing.destroy(new Error(`GET ${path} from ${localAddress} took over 60 s`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
  return (parsePrometheusText(text).get(name) ?? [])
    .filter((sample) => Object.entries(labels).every(([key, value]) => parseLabels(sample.labels)[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe('a fair share of the uncached work per client', () => {
  it('refuses a flooding client past its share of the queue and serves another client before the flood', async () => {
    const refusedBefore = await metric('api_work_refused_total', { reason: 'client_queue_full' });
    const flood = Array.from({ length: FLOOD }, () => get(FLOOD_PAGE, '127.0.0.1'));
    // Once the flood has taken its slot and queued, another client asks for uncached pages of its own.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ordinary: Answer[] = [];
    for (let page = 1; page <= 3; page += 1)
      ordinary.push(await get(`/api/v1/competitions?limit=1&page=${page}&updatedSince=2000-01-01T00:00:00Z`, '127.0.0.2'));
    const flooded = await Promise.all(flood);

    expect(ordinary.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const served = flooded.filter((answer) => answer.status === 200);
    const refused = flooded.filter((answer) => answer.status === 503);
    expect(served.length + refused.length).toBe(FLOOD);
    // One slot and its share of the queue; the rest refused at once, with Retry-After.
    expect(served.length).toBeLessThanOrEqual(1 + PER_CLIENT_QUEUE + 1);
    expect(refused.length).toBeGreaterThanOrEqual(FLOOD - PER_CLIENT_QUEUE - 2);
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toBe('1');
      expect(JSON.parse(answer.body)).toMatchObject({ error: { type: 'SERVICE_UNAVAILABLE' } });
    }
    // The other client never waited behind the flood's queue: its pages were done before the flood's last page.
    const lastFloodPage = Math.max(...served.map((answer) => answer.endedAt));
    expect(Math.max(...ordinary.map((answer) => answer.endedAt))).toBeLessThan(lastFloodPage);
    expect((await metric('api_work_refused_total', { reason: 'client_queue_full' })) - refusedBefore).toBe(refused.length);
    expect(await metric('api_work_queue_wait_seconds_count')).toBeGreaterThan(0);
  }, 120_000);
});

describe('the time limit of a search', () => {
  it('sends API_SEARCH_TIMEOUT_MS as maxTimeMS with the queries of an uncached search, and API_QUERY_TIMEOUT_MS with the others', async () => {
    const monitored = new MongoClient(testServers().mongoUrl, { monitorCommands: true });
    const commands: Array<{ name: string; search: boolean; maxTimeMS: unknown }> = [];
    monitored.on('commandStarted', (event) => {
      const collection: unknown = event.command[event.commandName];
      if (!['find', 'aggregate', 'count'].includes(event.commandName) || collection === 'read_model_meta') return;
      commands.push({
        name: event.commandName,
        search: JSON.stringify(event.command).includes('$regex'),
        maxTimeMS: event.command.maxTimeMS,
      });
    });
    const limited = await startApi(monitored.db(database.db.databaseName), NOW, {
      API_QUERY_TIMEOUT_MS: '4321',
      API_SEARCH_TIMEOUT_MS: '1234',
    });
    try {
      for (const path of [
        '/api/v1/competitions?limit=2&search=lorem',
        '/api/v1/competitions.ics?search=dolor',
        '/api/v1/competitions?limit=2',
      ]) {
        expect((await limited.request(path)).status, path).toBe(200);
      }
      const searches = commands.filter((command) => command.search);
      // A page and its count per listed search; the calendar's feed.
      expect(searches.length).toBeGreaterThanOrEqual(3);
      expect(searches.filter((command) => command.maxTimeMS !== 1234)).toEqual([]);
      const others = commands.filter((command) => !command.search);
      expect(others.length).toBeGreaterThanOrEqual(1);
      expect(others.filter((command) => command.maxTimeMS !== 4321)).toEqual([]);
    } finally {
      await limited.close();
      await monitored.close();
    }
  }, 60_000);
});
