import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../../projector/status/readProjectorStatus.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { sampleRss } from '../adversarial/processRss.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { msUntilStatus } from '../faults/support/httpProbe.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { testServers } from '../support/isolation.ts';
import { openDatabase, type Database } from './apiHarness.ts';
import { History, LV, competitionDetails, competitionId, venue } from './eventBuilders.ts';

// The real API process (api/main.ts) under clients that take more than their share
// (decisions.md, "Hostile input": a bound on connections per client; answers within a memory
// budget; uncached work past a bound answers 503 with Retry-After). Each client below has a
// loopback address of its own (127.0.0.x), so the per-client cap tells them apart. The
// process runs with short bounds set through its configuration: 20 connections per client, a
// 2 s stall timeout, one search at a time of its uncached answers.

const NOW = new Date('2025-06-14T10:00:00Z');
const apiEntry = fileURLToPath(new URL('../../api/main.ts', import.meta.url));
const PER_CLIENT = 20;
const STALL_MS = 2_000;
/** 16 competitions of 400,000 characters of Markdown: a page of them is several MB, more than the kernel's socket buffers hold. */
const BIG = { count: 16, chars: 400_000 };
const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua';

let database: Database;
let api: NodeProcess;
let port: number;
let opsPort: number;

function bigCalendar(): DomainEvent[] {
  const text = `${WORDS} `.repeat(Math.ceil(BIG.chars / (WORDS.length + 1))).slice(0, BIG.chars);
  return Array.from({ length: BIG.count }, (_, i) =>
    new History(competitionId(100 + i))
      .at(
        '2025-03-01T10:00:00Z',
        'competition.drafted',
        competitionDetails(100 + i, { descriptionFormatted: `Round ${i}: ${text}`, location: venue(LV, 'Rīga') }),
      )
      .at('2025-03-02T10:00:00Z', 'competition.published', {}),
  ).flatMap((history) => history.events);
}

beforeAll(async () => {
  const servers = testServers();
  database = await openDatabase('api_connections');
  await database.project(bigCalendar(), NOW);
  [port, opsPort] = await freePorts(2);
  api = spawnNode(apiEntry, [], {
    ...process.env,
    LOG_LEVEL: 'warn',
    MONGO_URL: servers.mongoUrl,
    MONGO_DB: database.db.databaseName,
    REDIS_URL: '',
    API_HOST: '127.0.0.1',
    API_PORT: String(port),
    API_OPS_PORT: String(opsPort),
    API_PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_MAX: '1000000',
    API_CONNECTIONS_PER_CLIENT: String(PER_CLIENT),
    API_STALLED_RESPONSE_TIMEOUT_MS: String(STALL_MS),
    API_SEARCHES_AT_ONCE: '1',
    // Searches past their turn wait in a queue as long as the work slots' own: a short one, so the burst below meets the bound.
    API_WORK_QUEUE_LENGTH: '2',
    // A streamed answer holds its work slot until it ends: room for a wave of readers who never read, beside the others.
    API_WORK_CONCURRENCY: '16',
    // Each client here may take every slot: the bounds under test are the connection cap, the stall timeout and the search turns, not the per-client share (fairShare.int.test.ts).
    API_WORK_PER_CLIENT: '16',
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
  body: Buffer;
}

/** One GET on a connection of its own from `localAddress`. */
function get(path: string, localAddress: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    outgoing.setTimeout(20_000, () => outgoing.destroy(new Error(`GET ${path} from ${localAddress} took over 20 s`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
  return (parsePrometheusText(text).get(name) ?? []).reduce((sum, sample) => sum + sample.value, 0);
}

/** A socket from `localAddress`, resolved once connected; `closedAt` resolves when it closes (from either side). */
function openSocket(localAddress: string): Promise<{ socket: Socket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    const closed = new Promise<number>((done) => socket.once('close', () => done(performance.now())));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Whether `raw` holds a whole HTTP response: its head and as many body bytes as it declares (or the chunked end). */
function isComplete(raw: Buffer): boolean {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const head = raw.subarray(0, headEnd).toString('latin1');
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) return raw.length - headEnd - 4 >= Number(length[1]);
  return /\r\ntransfer-encoding: *chunked/i.test(head) && raw.subarray(-5).toString('latin1') === '0\r\n\r\n';
}

const PAGE = '/api/v1/competitions?limit=20';

describe('connections per client', () => {
  it('closes a client’s connections past its cap at once, counts them, and keeps answering another client', async () => {
    const refusedBefore = await metric('api_connections_refused_total');
    const began = performance.now();
    const opened = await Promise.all(Array.from({ length: 300 }, () => openSocket('127.0.0.1')));
    // Another client is answered while the first holds every connection it may.
    for (let i = 0; i < 5; i += 1) expect((await get(`/api/v1/competitions?limit=1&page=${i + 1}`, '127.0.0.2')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const closedSoon = (
      await Promise.all(
        opened.map(({ closed }) => Promise.race([closed, new Promise<null>((resolve) => setImmediate(() => resolve(null)))])),
      )
    ).filter((at) => at !== null);
    const stillOpen = opened.filter(({ socket }) => !socket.destroyed && socket.readyState === 'open').length;
    console.log(
      `300 connections from one client: ${closedSoon.length} closed within ${Math.round(performance.now() - began)} ms, ${stillOpen} open`,
    );
    expect(closedSoon.length).toBe(300 - PER_CLIENT);
    expect(stillOpen).toBe(PER_CLIENT);
    expect((await metric('api_connections_refused_total')) - refusedBefore).toBe(300 - PER_CLIENT);
    // Its own connections give its slots back when they close.
    for (const { socket } of opened) socket.destroy();
    await Promise.all(opened.map(({ closed }) => closed));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await get('/api/v1/competitions?limit=1', '127.0.0.1')).status).toBe(200);
  }, 60_000);
});

describe('answers nobody reads', () => {
  it('closes the connections of clients that ask for large bodies and never read them, within the stall timeout, while others are answered', async () => {
    const rss = sampleRss(api.child.pid!, 100);
    const stalledBefore = await metric('api_connections_stalled_total');
    const full = await get(PAGE, '127.0.0.2');
    expect(full.status).toBe(200);
    const bodyMb = full.body.length / 2 ** 20;
    const waves = 3;
    const perWave = 10;
    let truncated = 0;
    let cutWithinMs = 0;
    for (let wave = 0; wave < waves; wave += 1) {
      const readers = await Promise.all(
        Array.from({ length: perWave }, async () => {
          const opened = await openSocket('127.0.0.3');
          opened.socket.pause();
          opened.socket.write(`GET ${PAGE} HTTP/1.1\r\nHost: x\r\n\r\n`);
          return opened;
        }),
      );
      // Others go on being answered while the readers hold their answers, until the server has cut
      // them all (an answer starts late on a loaded machine, so the time is the test's bound only).
      const began = performance.now();
      let answered = 0;
      while ((await metric('api_connections_stalled_total')) - stalledBefore < (wave + 1) * perWave) {
        expect(performance.now() - began, 'every reader cut in time').toBeLessThan(STALL_MS + 30_000);
        expect((await get(`/api/v1/competitions?limit=1&page=${answered + 1}`, '127.0.0.2')).status).toBe(200);
        answered += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      cutWithinMs = Math.max(cutWithinMs, performance.now() - began);
      expect(answered).toBeGreaterThan(0);
      // Now read what each got: the server dropped the rest of the body.
      const received = await Promise.all(
        readers.map(
          ({ socket, closed }) =>
            new Promise<Buffer>((resolve) => {
              const chunks: Buffer[] = [];
              socket.on('data', (chunk: Buffer) => chunks.push(chunk));
              socket.resume();
              const giveUp = setTimeout(() => socket.destroy(), 5_000);
              void closed.then(() => {
                clearTimeout(giveUp);
                resolve(Buffer.concat(chunks));
              });
            }),
        ),
      );
      truncated += received.filter((raw) => raw.length > 0 && !isComplete(raw)).length;
    }
    rss.stop();
    const series = rss.series();
    const baseline = series[0] ?? 0;
    console.log(
      `${waves} waves of ${perWave} readers that never read a ${bodyMb.toFixed(1)} MB page: ${truncated} cut, each wave within ${Math.round(cutWithinMs)} ms; API RSS ${baseline.toFixed(0)} MB before, peak ${rss.peakMb().toFixed(0)} MB`,
    );
    expect(truncated).toBe(waves * perWave);
    expect((await metric('api_connections_stalled_total')) - stalledBefore).toBe(waves * perWave);
    // Each wave's answers are dropped before the next: the peak holds about one wave, not all of them.
    expect(rss.peakMb() - baseline).toBeLessThan(2 * perWave * bodyMb + 100);
  }, 120_000);

  it('never cuts a long answer the client reads, however slowly, with pauses just under the stall timeout', async () => {
    const { socket, closed } = await openSocket('127.0.0.4');
    const chunks: Buffer[] = [];
    let pauses = 0;
    const began = performance.now();
    const done = new Promise<Buffer>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const raw = Buffer.concat(chunks);
        if (isComplete(raw)) return resolve(raw);
        // Every 1.5 MB the reader stops for most of the stall timeout. (What it reads between two
        // pauses must free a good part of the sockets' buffers, a few MB on loopback, for the server
        // to see any of it taken: the server can only tell by what it can send.)
        if (chunks.reduce((sum, c) => sum + c.length, 0) > (pauses + 1) * 1.5 * 2 ** 20 && pauses < 4) {
          pauses += 1;
          socket.pause();
          setTimeout(() => socket.resume(), STALL_MS - 600);
        }
      });
      void closed.then(() => resolve(Buffer.concat(chunks)));
    });
    socket.write(`GET ${PAGE} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const raw = await done;
    const seconds = (performance.now() - began) / 1000;
    console.log(`a slow reader took ${seconds.toFixed(1)} s over ${(raw.length / 2 ** 20).toFixed(1)} MB with ${pauses} pauses`);
    expect(pauses).toBe(4);
    expect(seconds).toBeGreaterThan((4 * (STALL_MS - 600)) / 1000);
    expect(isComplete(raw)).toBe(true);
    socket.destroy();
  }, 60_000);
});

describe('searches', () => {
  it('runs a bounded number of uncached searches at once and answers the rest 503 with Retry-After', async () => {
    const refusedBefore = await metric('api_searches_refused_total');
    // Distinct searches (no cache hit), each matching every competition, from two clients.
    const terms = Array.from(new Set(WORDS.split(' ').flatMap((word) => [word, word.slice(0, 3), word.slice(1, 4)]))).filter(
      (term) => term.length >= 3,
    );
    const answers = await Promise.all(
      terms
        .slice(0, 2 * PER_CLIENT)
        .map((term, i) => get(`/api/v1/competitions?limit=2&search=${encodeURIComponent(term)}`, i % 2 === 0 ? '127.0.0.5' : '127.0.0.6')),
    );
    const statuses = answers.map((answer) => answer.status);
    console.log(
      `${answers.length} distinct searches at once: ${statuses.filter((s) => s === 200).length} 200, ${statuses.filter((s) => s === 503).length} 503`,
    );
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ error: { type: 'SERVICE_UNAVAILABLE' } });
    }
    // Refused by the search bound, not only by the bound on all uncached work (API_WORK_CONCURRENCY's queue).
    const refusedBySearch = (await metric('api_searches_refused_total')) - refusedBefore;
    expect(refusedBySearch).toBeGreaterThan(0);
    expect(refusedBySearch).toBeLessThanOrEqual(refused.length);
    // A search alone is served.
    expect((await get('/api/v1/competitions?limit=1&search=tempor', '127.0.0.5')).status).toBe(200);
  }, 60_000);

  it('answers NUL or another control character in a text parameter with 400 naming it', async () => {
    for (const [name, value] of [
      ['search', 'ab%00'],
      ['search', '%00%00lorem'],
      ['city', 'R%00'],
      ['search', 'lorem%1B'],
    ] as const) {
      const answer = await get(`/api/v1/competitions?${name}=${value}`, '127.0.0.7');
      expect(answer.status, `${name}=${value}`).toBe(400);
      expect(JSON.parse(answer.body.toString('utf8')).error.details, `${name}=${value}`).toEqual([
        expect.stringMatching(new RegExp(`^${name}: must not contain control characters`)),
      ]);
    }
  });
});
