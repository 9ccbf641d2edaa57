import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../api/apiServer.ts';
import { createApp } from '../../api/createApp.ts';
import { loadConfig } from '../../services/config/index.ts';
import type { ReadinessCheck } from '../../services/ops/index.ts';
import { openDatabase, PUBLIC_URL, SITE_URL, type Database } from './apiHarness.ts';
import { NOW, calendarEvents } from './calendarSeed.ts';

// Requests a hostile or careless client can send, to the real app on a real port behind the
// HTTP server main.ts builds (createApiServer: its timeouts and caps), over the real database
// (decisions.md, "Hostile input"): many IPv6 addresses of one /64 through a trusted proxy, long
// and odd parameters, over-long request lines, distinct URLs by the thousand, slow clients.
// Every case asserts what the service does, and that it keeps answering others.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON the tests assert on
  json: any;
}

interface Api {
  port: number;
  readinessCalls: () => number;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let database: Database;
/** The production budget would make a 301st request a 429; this one only has to be reachable. */
let limited: Api;
/** Rate limit out of the way, a 1 MiB response cache (the smallest allowed) so the heap shows the memo. */
let open: Api;

async function startApi(env: Record<string, string>): Promise<Api> {
  const config = loadConfig({ API_PUBLIC_URL: PUBLIC_URL, SITE_URL, ...env });
  let readinessCalls = 0;
  const readiness: ReadinessCheck = () => {
    readinessCalls += 1;
    return Promise.resolve({ ready: true, checks: { mongo: true } });
  };
  const app = createApp({ config, logger: pino({ level: 'silent' }), readiness, db: database.db, clock: () => NOW.getTime() });
  const handle = app.callback();
  const server = createApiServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    readinessCalls: () => readinessCalls,
    get: (path, headers = {}) => get(port, path, headers),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function get(port: number, path: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const isJson = (res.headers['content-type'] ?? '').startsWith('application/json');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: isJson && text !== '' ? JSON.parse(text) : undefined });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Bytes written as they are on a socket of their own; resolves with what came back once the server closed it. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(bytes, 'latin1');
  });
}

function statusLine(response: string): string {
  return response.split('\r\n')[0] ?? '';
}

beforeAll(async () => {
  database = await openDatabase('api_hostile');
  await database.project(calendarEvents, NOW);
  limited = await startApi({ TRUSTED_PROXY_COUNT: '1', RATE_LIMIT_MAX: '10' });
  open = await startApi({ TRUSTED_PROXY_COUNT: '1', RATE_LIMIT_MAX: '1000000', CACHE_MAX_BYTES: '1048576' });
}, 120_000);

afterAll(async () => {
  agent.destroy();
  await limited?.close();
  await open?.close();
  await database?.drop();
});

describe('rate limit behind a trusted proxy: one budget per IPv6 /64', () => {
  const from = (address: string) => limited.get('/api/v1/competitions', { 'X-Forwarded-For': `203.0.113.250, ${address}` });

  it('spends one budget for every address of a /64, however it is written, and another /64 has its own', async () => {
    const sameSlash64 = [
      '2001:db8:7:1::1',
      '2001:db8:7:1::2',
      '2001:0db8:0007:0001:0000:0000:0000:0003',
      '2001:db8:7:1:ffff:ffff:ffff:ffff',
      '2001:db8:7:1:1234:5678:9abc:def0',
      '2001:DB8:7:1::A',
      '2001:db8:7:1:0:0:0:b',
      '2001:db8:7:1::c%eth0',
      '2001:db8:7:1:8000::',
      '2001:db8:7:1::d',
    ];
    const remaining: string[] = [];
    for (const address of sameSlash64) {
      const reply = await from(address);
      expect(reply.status, address).toBe(200);
      remaining.push(String(reply.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const eleventh = await from('2001:db8:7:1:dead:beef:0:1');
    expect(eleventh.status).toBe(429);
    expect(eleventh.json.error.type).toBe('RATE_LIMIT_EXCEEDED');

    const neighbour = await from('2001:db8:7:2::1');
    expect(neighbour.status).toBe(200);
    expect(neighbour.headers['x-ratelimit-remaining']).toBe('9');
  });

  it('keeps IPv4 per address, also when it arrives IPv4-mapped', async () => {
    for (let i = 0; i < 10; i++) expect((await from(i % 2 === 0 ? '198.51.100.7' : '::ffff:198.51.100.7')).status).toBe(200);
    expect((await from('::ffff:c633:6407')).status).toBe(429);
    expect((await from('198.51.100.8')).status).toBe(200);
  });
});

describe('long and odd parameters', () => {
  it('serves 100 characters and answers 400 naming the parameter at 101', async () => {
    for (const name of ['search', 'city', 'country']) {
      const at = await open.get(`/api/v1/competitions?${name}=${'a'.repeat(100)}`);
      expect(at.status, name).toBe(200);
      const over = await open.get(`/api/v1/competitions?${name}=${'a'.repeat(101)}`);
      expect(over.status, name).toBe(400);
      expect(over.json.error.details).toEqual([`${name}: must be at most 100 characters long (got "${'a'.repeat(40)}…")`]);
    }
    expect((await open.get(`/api/v1/clubs?city=${'a'.repeat(101)}`)).json.error.details[0]).toMatch(/^city: must be at most 100/);
    expect((await open.get(`/api/v1/competitions/${'s'.repeat(100)}`)).status).toBe(404);
    const slug = await open.get(`/api/v1/competitions/${'s'.repeat(101)}/categories`);
    expect(slug.status).toBe(400);
    expect(slug.json.error.details).toEqual([`idOrSlug: must be at most 100 characters long (got "${'s'.repeat(40)}…")`]);
    expect((await open.get(`/api/v1/competitions?type=${'t'.repeat(65)}`)).json.error.details[0]).toMatch(/^type: /);
  });

  it('answers control characters, NUL, lone surrogates, bidi marks and broken encodings with a 200, 400 or 404, never a fault', async () => {
    const values = [
      '%00',
      '%00%00ab',
      'ab%01%1F%7F',
      '%ED%A0%80ab',
      'ab%ED%BF%BF',
      '%F0%9Fab',
      '%C0%AFab',
      '%E2%80%AEab%E2%80%AC',
      '%',
      '%zz',
      'a%2',
      '%EF%BF%BFab',
    ];
    for (const value of values) {
      for (const path of [`/api/v1/competitions?search=${value}`, `/api/v1/clubs?city=${value}`, `/api/v1/competitions/${value}`]) {
        const reply = await open.get(path);
        expect([200, 400, 404], path).toContain(reply.status);
        expect(reply.json === undefined ? undefined : (reply.json.data ?? reply.json.error), path).toBeDefined();
      }
    }
    // A NUL or a raw control byte in the request line itself: the parser refuses it, the service goes on.
    expect(statusLine(await rawExchange(open.port, 'GET /api/v1/competitions?search=a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n'))).toMatch(
      /^HTTP\/1\.1 400/,
    );
    expect(statusLine(await rawExchange(open.port, 'GET /api/v1/competitions?search=a\u0001b HTTP/1.1\r\nHost: x\r\n\r\n'))).toMatch(
      /^HTTP\/1\.1 400/,
    );
    expect((await open.get('/api/v1/competitions?search=riga')).status).toBe(200);
  });
});

/** A valid /competitions URL whose request line `GET <url> HTTP/1.1` is `bytes` long; `tag` makes it distinct. */
function typeListUrl(bytes: number, tag: string): string {
  const frame = 'GET  HTTP/1.1'.length;
  let url = `/api/v1/competitions?type=${tag}`;
  for (let i = 0; url.length + frame + `,t${i}`.length <= bytes - 40; i++) url += `,t${i}`;
  return `${url},${'x'.repeat(bytes - frame - url.length - 1)}`;
}

describe('request line', () => {
  it('serves a request line of 8 KB and answers 414 in the envelope past it', async () => {
    const longest = typeListUrl(8192, 'edge');
    expect((await open.get(longest)).status).toBe(200);
    const over = await open.get(`${longest}x`);
    expect(over.status).toBe(414);
    expect(over.json.error).toMatchObject({ type: 'URI_TOO_LONG', details: [] });
    expect((await open.get(`/api/v1/competitions?search=${'a'.repeat(12_000)}`)).status).toBe(414);
  });

  it('cuts a request head over 16 KB in the parser (431) and goes on answering', async () => {
    const response = await rawExchange(open.port, `GET /api/v1/competitions?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(statusLine(response)).toMatch(/^HTTP\/1\.1 431/);
    expect((await open.get('/api/v1/competitions')).status).toBe(200);
  });
});

describe('distinct URLs by the thousand', () => {
  it('keeps the heap bounded: the URL memo and the response cache are bounded in bytes', async () => {
    const send = async (urls: string[]) => {
      let next = 0;
      const worker = async () => {
        while (next < urls.length) {
          const url = urls[next++] as string;
          expect((await open.get(url)).status).toBe(200);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    };
    // Long valid URLs: a thousand type items each, the costliest a memo entry can be.
    await send(Array.from({ length: 50 }, (_, i) => typeListUrl(8000, `warm${i}`)));
    gc();
    const before = process.memoryUsage().heapUsed;
    const count = 1000;
    await send(Array.from({ length: count }, (_, i) => typeListUrl(8000, `u${i}`)));
    gc();
    const grownMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    console.log(`${count} distinct URLs of 8,000 bytes: heap grew ${grownMiB.toFixed(1)} MiB`);
    // The memo's 8 MiB, the cache's 1 MiB and slack; remembered by entries alone they held several times more.
    expect(grownMiB).toBeLessThan(24);
    expect((await open.get('/api/v1/competitions')).status).toBe(200);
  }, 300_000);
});

describe('slow clients', () => {
  it('closes a connection whose head trickles in, and one that sends nothing, while other clients are answered', async () => {
    const slow = (start: string) =>
      new Promise<{ response: string; closedByServer: boolean }>((resolve) => {
        const socket = connect(open.port, '127.0.0.1');
        let response = '';
        let closedByServer = true;
        const trickle = setInterval(() => socket.write('a'), 250);
        // A safety net far past the header timeout, so a server that never cuts fails instead of hanging.
        const giveUp = setTimeout(() => {
          closedByServer = false;
          socket.destroy();
        }, 45_000);
        socket.on('data', (chunk: Buffer) => (response += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(trickle);
          clearTimeout(giveUp);
          resolve({ response, closedByServer });
        });
        if (start) socket.write(start);
        else clearInterval(trickle);
      });
    const trickling = slow('GET /api/v1/competitions HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const silent = slow('');
    let answered = 0;
    let slowDone = false;
    void Promise.all([trickling, silent]).then(() => (slowDone = true));
    while (!slowDone) {
      expect((await open.get(`/api/v1/competitions?page=${answered + 1}`)).status).toBe(200);
      answered += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const [cut, idle] = await Promise.all([trickling, silent]);
    expect(cut.closedByServer).toBe(true);
    expect(statusLine(cut.response)).toBe('HTTP/1.1 408 Request Timeout');
    expect(idle.closedByServer).toBe(true);
    expect(answered).toBeGreaterThan(1);
  }, 60_000);
});

describe('health on the public port', () => {
  it('answers any number of readiness probes from one recent check', async () => {
    const before = open.readinessCalls();
    const replies = await Promise.all(Array.from({ length: 200 }, () => open.get('/health/ready')));
    for (let i = 0; i < 100; i++) replies.push(await open.get('/health/ready'));
    expect(replies.every((reply) => reply.status === 200 && reply.json.status === 'ready')).toBe(true);
    // The app's clock is pinned, so the first answer never grows a second old: one check in all.
    expect(open.readinessCalls() - before).toBe(1);
    expect(replies[0]?.headers['cache-control']).toBe('no-store');
  });
});
