import { VERSION_FRESHNESS } from '../../api/readModelSource.ts';
import { Registry } from 'prom-client';
import { Writable } from 'node:stream';
import type Koa from 'koa';
import { MongoClient, type Db } from 'mongodb';
import { pino } from 'pino';
import { createApp } from '../../api/createApp.ts';
import { matchEndpoint } from '../../api/http/index.ts';
import { loadConfig, type Config } from '../../services/config/index.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { ensureMeta } from '../../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../../services/readModel/indexPlan.ts';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import { DEFAULT_SESSION_TIMEOUT_MS } from '../../projector/consume/consumerDefaults.ts';
import { projectEvents } from '../../projector/write/projectEvents.ts';
import { projectionCollections } from '../../projector/write/projectionCollections.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';
import { listenOnFreePort } from './listenOnFreePort.ts';

export const PUBLIC_URL = 'https://api.test.example';
export const SITE_URL = 'https://site.test.example';
export const API = `${PUBLIC_URL}/api/v1`;
export const PROJECTION = { zone: 'UTC', bufferPeriodDays: 30 };

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON the tests assert on
  json: any;
}

export interface Database {
  client: MongoClient;
  db: Db;
  /** Projects events at `now` into the live generation, as the projector does. */
  project(events: readonly DomainEvent[], now: Date): Promise<void>;
  drop(): Promise<void>;
}

/** The ids of a list body's items, in order. */
export function idsIn(body: unknown): string[] {
  return (body as { data: Array<{ id: string }> }).data.map((item) => item.id);
}

/** A fresh database per test file, with generation 1 created and its indexes ensured. */
export async function openDatabase(prefix: string): Promise<Database> {
  const client = await MongoClient.connect(testServers().mongoUrl);
  const db = client.db(uniqueName(prefix));
  const { generation } = await ensureMeta(db);
  await ensureReadModelIndexes(db, projectionCollections(generation));
  return {
    client,
    db,
    project: async (events, now) => {
      // Transactions as a live projector's on the local server, so the tallies are kept (and checked by the filter tests).
      const store = new MongoProjectionStore(db, generation, { liveTransactionsWithinMs: DEFAULT_SESSION_TIMEOUT_MS });
      // One batch per event keeps the writer's guards out of the way of hand-made histories.
      for (const event of events) await projectEvents([event], store, PROJECTION, now);
    },
    drop: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

export interface ApiServer {
  config: Readonly<Config>;
  /** Request-log lines written by the app. */
  logLines: Array<Record<string, unknown>>;
  clock: { now: number };
  /** The registry the app's request metrics go to (the operators' port in production). */
  metrics: Registry;
  /** `http://127.0.0.1:<port>`, for a test that needs the raw bytes of a response. */
  origin: string;
  request(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<Reply>;
  close(): Promise<void>;
}

/** The Koa app in process on an ephemeral port, with a pinned clock and a captured log. */
export async function startApi(db: Db, now: Date, env: Record<string, string> = {}): Promise<ApiServer> {
  const config = loadConfig({ API_PUBLIC_URL: PUBLIC_URL, SITE_URL, RATE_LIMIT_MAX: '100000', ...env });
  const logLines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const clock = { now: now.getTime() };
  const metrics = new Registry();
  const app = createApp({
    config,
    logger: pino({ level: 'info' }, sink),
    readiness: () => Promise.resolve({ ready: true, checks: {} }),
    db,
    clock: () => clock.now,
    metrics,
  });
  return { config, logLines, clock, metrics, ...(await serve(app)) };
}

/**
 * Every 200 body of the API against its endpoint's response schema (closed: no stray or
 * internal field), whatever the test asserts besides. The OpenAPI document has its own test.
 */
function expectValidBody(path: string, status: number, json: unknown): void {
  if (status !== 200 || json === undefined) return;
  const endpoint = matchEndpoint(new URL(path, 'http://x').pathname, '/api/v1');
  if (endpoint && endpoint.definition.name !== 'openApiDocument') expectMatchesSchema(json, endpoint.definition.response);
}

/** Any Koa app on an ephemeral port, requested with fetch; every 200 body is schema-checked. */
export async function serve(app: Koa): Promise<Pick<ApiServer, 'origin' | 'request' | 'close'>> {
  const handle = app.callback();
  const { origin, close } = await listenOnFreePort(() => (req, res) => void handle(req, res));
  return {
    origin,
    request: async (path, init = {}) => {
      const res = await fetch(`${origin}${path}`, { method: init.method ?? 'GET', headers: init.headers });
      const text = await res.text();
      // The reference page and its files are not JSON: their text is what a test reads.
      const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
      const json: unknown = text === '' || !isJson ? undefined : JSON.parse(text);
      expectValidBody(path, res.status, json);
      return { status: res.status, headers: res.headers, text, json };
    },
    close,
  };
}

/**
 * Waits past the API's version freshness bound (decisions.md: a request arriving 50 ms after a
 * write is served with it), so the next request must see what was just projected.
 */
export function afterFreshnessBound(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, VERSION_FRESHNESS.maxAgeMs + 5));
}
