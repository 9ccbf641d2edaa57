import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChangeFeedGoneError, FederationApiError, createFederationClient, type Change, type FederationClientOptions } from './index.ts';

// The change feed's protocol edges (long polls, resuming from the last cursor after failures,
// 410, abort and break) against a local HTTP server that answers as scripted; the real API and
// projector are test/api/changeFeedClient.int.test.ts's.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let script: Handler[] = [];
let seen: URL[] = [];
let origin = '';
const server = createServer((req, res) => {
  seen.push(new URL(req.url ?? '/', origin));
  const handler = script.shift() ?? ((_q, r) => void r.writeHead(500).end('script ran out'));
  handler(req, res);
});

const change = (n: number): Change => ({
  cursor: `1.${n}`,
  at: new Date(Date.UTC(2026, 10, 28, 12, 0, n)).toISOString(),
  type: 'club',
  id: `d${n}`,
  action: 'changed',
  url: `${origin}/api/v1/clubs/d${n}`,
});
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    void res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
/** A page of the changes numbered `ns`; an empty one's `last` is `emptyLast` (the cursor it followed, or past what filters left out). */
const changes =
  (...ns: number[]): Handler =>
  (req, res) => {
    const after = new URL(req.url ?? '/', origin).searchParams.get('after');
    const last = ns.length > 0 ? `1.${ns.at(-1)}` : (after ?? '1.0');
    json(200, { data: ns.map(change), meta: { limit: 20, after, last, latest: last, hasMore: false }, links: {} })(req, res);
  };
const skipped = (last: string): Handler => json(200, { data: [], meta: { limit: 20, after: null, last, latest: last, hasMore: false } });
const envelope = (type: string, message: string) => ({ error: { type, message, details: [] } });
/** Answers nothing until the client gives up or goes away. */
const hang: Handler = () => undefined;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
});

const clientOf = (options: FederationClientOptions = {}) =>
  createFederationClient(`${origin}/api/v1`, { retry: { baseDelayMs: 1, maxDelayMs: 20 }, ...options });

/** The first `n` changes of the feed, then the loop is left with `break`. */
async function take(n: number, iterator: AsyncIterable<Change>): Promise<string[]> {
  const cursors: string[] = [];
  for await (const c of iterator) {
    cursors.push(c.cursor);
    if (cursors.length === n) break;
  }
  return cursors;
}

describe('client.changes()', () => {
  it('long-polls from the last cursor it yielded, with the filters on every request', async () => {
    script = [changes(1, 2), changes(), skipped('1.5'), changes(6)];
    const cursors = await take(3, clientOf().changes({ after: '1.0', type: ['dancer', 'club'], country: 'LV', waitSeconds: 20, limit: 2 }));
    expect(cursors).toEqual(['1.1', '1.2', '1.6']);
    expect(seen.map((url) => url.pathname)).toEqual(Array(4).fill('/api/v1/changes'));
    // An empty page's meta.last goes past the changes its filters left out.
    expect(seen.map((url) => url.searchParams.get('after'))).toEqual(['1.0', '1.2', '1.2', '1.5']);
    for (const url of seen)
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ type: 'dancer,club', country: 'LV', wait: '20', limit: '2' });
  });

  it('starts without a cursor when given none', async () => {
    script = [changes(1)];
    await take(1, clientOf().changes());
    expect(seen[0]?.searchParams.has('after')).toBe(false);
    expect(seen[0]?.searchParams.get('wait')).toBe('25');
  });

  it('resumes from its last cursor after a 503, a 429, a reset connection and a cut body, honouring Retry-After', async () => {
    const started = Date.now();
    script = [
      changes(1),
      json(503, envelope('SERVICE_UNAVAILABLE', 'busy'), { 'retry-after': '1' }),
      json(429, envelope('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': '0' }),
      (req) => req.socket.destroy(),
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"data":[');
        setTimeout(() => res.destroy(), 20);
      },
      changes(2),
    ];
    const cursors = await take(2, clientOf({ retry: { attempts: 1, baseDelayMs: 1 } }).changes());
    expect(cursors).toEqual(['1.1', '1.2']);
    // attempts: 1 governs single requests; the feed tries again whatever it says.
    expect(seen.map((url) => url.searchParams.get('after'))).toEqual([null, '1.1', '1.1', '1.1', '1.1', '1.1']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('times an attempt out after the wait it asked for plus timeoutMs, and asks again from the same cursor', async () => {
    script = [changes(1), hang, changes(2)];
    const cursors = await take(2, clientOf({ timeoutMs: 100 }).changes({ waitSeconds: 0 }));
    expect(cursors).toEqual(['1.1', '1.2']);
    expect(seen.map((url) => url.searchParams.get('after'))).toEqual([null, '1.1', '1.1']);
  });

  it('rejects with the last failure after maxFailures in a row', async () => {
    script = [changes(1), ...[1, 2, 3].map(() => json(503, envelope('SERVICE_UNAVAILABLE', 'busy'), { 'retry-after': '0' }))];
    const cursors: string[] = [];
    const failure: unknown = await (async () => {
      for await (const c of clientOf().changes({ maxFailures: 3 })) cursors.push(c.cursor);
    })().catch((e: unknown) => e);
    expect(cursors).toEqual(['1.1']);
    expect(failure).toBeInstanceOf(FederationApiError);
    expect((failure as FederationApiError).status).toBe(503);
    expect(seen).toHaveLength(4);
  });

  it('rejects with a ChangeFeedGoneError that says to resync on 410', async () => {
    script = [json(410, envelope('CURSOR_EXPIRED', 'The cursor is older than the changes kept.'), { 'x-request-id': 'r-9' })];
    const failure: unknown = await take(1, clientOf().changes({ after: '1.1' })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ChangeFeedGoneError);
    expect(failure).toBeInstanceOf(FederationApiError);
    expect(failure).toMatchObject({ status: 410, requestId: 'r-9', error: { type: 'CURSOR_EXPIRED' } });
    expect((failure as Error).message).toMatch(/^410 CURSOR_EXPIRED: .* Resync from the listings \(updatedSince\)/);
  });

  it('goes on from the cursor onGone returns after a 410', async () => {
    script = [changes(1), json(410, envelope('CURSOR_EXPIRED', 'gone')), changes(8)];
    const gone: ChangeFeedGoneError[] = [];
    const cursors = await take(
      2,
      clientOf().changes({
        onGone: (error) => {
          gone.push(error);
          return Promise.resolve('1.7');
        },
      }),
    );
    expect(cursors).toEqual(['1.1', '1.8']);
    expect(gone).toHaveLength(1);
    expect(seen.map((url) => url.searchParams.get('after'))).toEqual([null, '1.1', '1.7']);
  });

  it('rejects with the typed error of an answer it does not retry', async () => {
    script = [json(400, envelope('INVALID_REQUEST', 'bad'))];
    await expect(take(1, clientOf().changes({ country: 'nowhere' }))).rejects.toMatchObject({ status: 400 });
  });

  it('ends without an error when its signal aborts, during a long poll and during a backoff', async () => {
    for (const wait of [hang, json(503, envelope('SERVICE_UNAVAILABLE', 'busy'), { 'retry-after': '60' })]) {
      script = [changes(1), wait];
      const controller = new AbortController();
      const cursors: string[] = [];
      const started = Date.now();
      setTimeout(() => controller.abort(), 200);
      for await (const c of clientOf().changes({ signal: controller.signal })) cursors.push(c.cursor);
      expect(cursors).toEqual(['1.1']);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('asks for nothing more once the loop is left', async () => {
    script = [changes(1, 2, 3)];
    expect(await take(2, clientOf().changes())).toEqual(['1.1', '1.2']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toHaveLength(1);
  });
});
