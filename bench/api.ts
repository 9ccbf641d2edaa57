// API benchmark: node bench/api.ts [--events 2000000] [--seed 3] [--duration 10] [--connections 50]
//                                   [--rounds 3] [--throughput-events N] [--samples 10]
//                                   [--endpoint-seconds 240] [--parts throughput,uncached,memory,flood]
//                                   [--flood-competitions 30] (flood: the largest answers, its own small model)
//                                   [--db NAME] (an existing read model to measure uncached, e.g. npm start's)
//                                   [--results docs/performance.md | none] [--reseed]
// (`npm run bench:api`). Seeds the read model of a generated history once (>= 200,000 persons,
// >= 3,000 competitions) the way an operator would: published to a bench topic, then rebuilt
// with its progress printed (both reused by later runs, see seedReadModel). Then prints, side by side in one run: cached
// GET /competitions against a bare node:http server returning the same bytes, the 304 path
// against the 200 path (interleaved rounds, each ratio taken within its round, and the median
// round, because this machine's noise moves single figures by a third), uncached p50/p99 per
// endpoint on the configured database, and the memory of the rate limiter and the response cache.
// Each part's figures replace its block in docs/performance.md, with the date, machine and commit.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { optionsFromEnv, startLocalServers } from '../infra/localServers.ts';
import { BodyCache, MemoryRateLimitStore } from '../api/http/index.ts';
import type { Collection, Db } from 'mongodb';
import { collectionName, connectMongo, readMeta } from '../services/mongo/index.ts';
import { readCollections } from '../services/readModel/documents.ts';
import { readCollectionIndexes } from '../services/readModel/indexPlan.ts';
import { resultsRecorder, RESULTS_FILE } from './saveResults.ts';
import { answerFlood } from './answerFlood.ts';
import { codingMix } from './codingMix.ts';
import { parsePrometheusText } from '../projector/status/readProjectorStatus.ts';
import { rawGet } from './rawGet.ts';
import { duration } from './seedProgress.ts';
import { seedReadModel } from './seedReadModel.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '2000000' },
    seed: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    samples: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    // A cache hit never touches the data, so any read model serves the throughput rounds: by
    // default the one the uncached part needs when it runs too (one seed instead of two), else
    // a small one.
    'throughput-events': { type: 'string' },
    db: { type: 'string' },
    // Which parts to run: throughput (cached, 304, bare), uncached (latency per endpoint), memory.
    parts: { type: 'string', default: 'throughput,uncached,memory,flood' },
    'flood-competitions': { type: 'string', default: '30' },
    // An endpoint's uncached sampling stops after this long (at least one sample).
    'endpoint-seconds': { type: 'string', default: '240' },
    // Where each part's figures are kept (its block replaced); `none` writes nothing.
    results: { type: 'string', default: RESULTS_FILE },
    // Rebuild the seeded models even when they would be reused (a change of the documents that kept the read-model format).
    reseed: { type: 'boolean', default: false },
  },
});
const record = resultsRecorder('bench:api', args.results);
const log = (line: string): void => void process.stderr.write(`› ${line}\n`);
const NOW = new Date('2026-11-23T12:00:00Z');
const API = 'http://127.0.0.1:18080';
const BARE = 'http://127.0.0.1:18081';
const FIXED = 'http://127.0.0.1:18082';
const BARE_BR = 'http://127.0.0.1:18083';

const endpoints = await startLocalServers(optionsFromEnv(process.env, log));

interface BenchData {
  dbName: string;
  /** How the read model came to be: seeded (publish and rebuild, with their times), reused, or given. */
  seeded: string;
  counts: Record<string, number>;
  competitionIds: string[];
  clubIds: string[];
}

const LISTINGS = ['competitions', 'dancers', 'judges', 'coaches', 'clubs'] as const;
const reseeded = new Set<string>();

/** The read model of `events` generated events, seeded once through the rebuild and reused by later runs. */
async function benchData(events: number): Promise<BenchData> {
  const dbName = args.db ?? `bench_api_s${args.seed}_n${events}`;
  const mongo = await connectMongo(endpoints.mongoUrl, dbName);
  try {
    let seeded: string;
    if (args.db) {
      // Somebody's database (--db) is measured as it is, never seeded over.
      if (!(await isComplete(mongo.db))) throw new Error(`${dbName} holds no complete read model (documents and every planned index)`);
      seeded = `${dbName} as it is (--db)`;
    } else {
      log(`read model ${dbName}: ${events} generated events, seed ${args.seed} (seeded once; later runs reuse it)`);
      const seed = await seedReadModel({
        db: mongo.db,
        brokers: endpoints.kafkaBrokers.split(','),
        seed: Number(args.seed),
        events,
        now: NOW,
        // Once per run: a second part on the same model reuses what the first rebuilt.
        reseed: args.reseed && !reseeded.has(dbName),
        log,
      });
      reseeded.add(dbName);
      seeded = seed.reused ? seed.summary : `${seed.summary}; ${duration(seed.seconds)} in all`;
      log(`read model ${dbName}: ${seeded}`);
    }
    const generation = (await readMeta(mongo.db)).generation;
    const collection = (listing: (typeof LISTINGS)[number]): Collection =>
      mongo.db.collection(collectionName(readCollections[listing], generation));
    const counts: Record<string, number> = {};
    for (const listing of LISTINGS) counts[listing] = await collection(listing).estimatedDocumentCount();
    const someIds = async (listing: 'competitions' | 'clubs', filter: object): Promise<string[]> =>
      (
        await collection(listing)
          .find(filter, { projection: { _id: 1 } })
          .limit(Number(args.samples))
          .toArray()
      ).map((d) => String(d._id));
    return {
      dbName,
      seeded,
      counts,
      competitionIds: await someIds('competitions', { visible: true }),
      clubIds: await someIds('clubs', { registryState: 'REGISTRY' }),
    };
  } finally {
    await mongo.close();
  }
}

/** A read model stopped half-way has documents without every planned index. */
async function isComplete(db: Db): Promise<boolean> {
  const dancers = db.collection(collectionName(readCollections.dancers, (await readMeta(db)).generation));
  return (
    (await dancers.estimatedDocumentCount()) > 0 && (await dancers.listIndexes().toArray()).length > readCollectionIndexes('dancers').length
  );
}

/** The documents line of a part's figures (the stored documents of each listing, tombstones of deleted aggregates included). */
const describeModel = (data: BenchData, events: string): string =>
  `read model of ${events} events (${data.dbName}): ${Object.entries(data.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')} documents; ${data.seeded}`;

function start(command: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, command, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}
async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (child.exitCode !== null) throw new Error(`the server for ${url} exited with ${child.exitCode}`);
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

// One client IP generates all the load, so the per-IP budget is raised for the run; the limiter
// still runs (and spends) on every request.
async function startApi(dbName: string, entry = 'api/main.ts', base = API): Promise<ChildProcess> {
  const api = start([entry], {
    MONGO_URL: endpoints.mongoUrl,
    MONGO_DB: dbName,
    API_PORT: new URL(base).port,
    API_OPS_PORT: '19464',
    API_PUBLIC_URL: base,
    RATE_LIMIT_MAX: '1000000',
    // One instance counting alone in memory, as the diagnostic twin does, whatever the caller's environment names.
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    API_QUERY_TIMEOUT_MS: '600000',
  });
  await waitReady(`${base}/health/ready`, api);
  return api;
}
async function stopApi(api: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => api.once('exit', resolve));
  api.kill('SIGTERM');
  await exited;
}

const parts = new Set(args.parts.split(','));
const throughputEvents = args['throughput-events'] ?? (parts.has('uncached') ? args.events : '200000');
if (parts.has('throughput')) await throughput();
if (parts.has('uncached')) await uncachedLatency();
if (parts.has('memory')) memory();
if (parts.has('flood')) {
  const lines = await answerFlood({
    mongoUrl: endpoints.mongoUrl,
    competitions: Number(args['flood-competitions']),
    seconds: Number(args.duration),
    connections: Number(args.connections),
    log,
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  record('flood', lines.join('\n'));
}
process.exit(0);

async function throughput(): Promise<void> {
  const model = await benchData(Number(throughputEvents));
  const api = await startApi(model.dbName);
  try {
    // One request fills the cache before any load.
    const first = await fetch(`${API}/api/v1/competitions`);
    const body = await first.text();
    const etag = first.headers.get('etag')!;
    const sample = {
      body,
      headers: { 'Content-Type': first.headers.get('content-type')!, ETag: etag, 'Cache-Control': first.headers.get('cache-control')! },
    };
    writeFileSync('.run/bench-competitions.json', JSON.stringify(sample));
    const bare = start(['bench/bareServer.ts', '18081', '.run/bench-competitions.json'], {});
    // The same resource in brotli, as the API's hit sends it, for the bare server of the coded body.
    const coded = await rawGet(`${API}/api/v1/competitions`, { 'Accept-Encoding': 'br' });
    const codedSample = {
      bodyBase64: coded.body.toString('base64'),
      headers: { ...sample.headers, 'Content-Encoding': coded.headers['content-encoding'] ?? 'identity', Vary: 'Origin, Accept-Encoding' },
    };
    writeFileSync('.run/bench-competitions-br.json', JSON.stringify(codedSample));
    const bareBr = start(['bench/bareServer.ts', '18083', '.run/bench-competitions-br.json'], {});
    const wire = await bytesOnTheWire([
      '/competitions',
      '/competitions?limit=100',
      '/competitions?limit=100&include=categories',
      '/dancers?limit=100',
      '/filters',
    ]);
    const fixed = await startApi(model.dbName, 'bench/fixedVersionApi.ts', FIXED);
    try {
      await waitReady(BARE, bare);
      await waitReady(BARE_BR, bareBr);
      // A cached phase must not straddle the entry's expiry: the refill is a query of the
      // database, which would be measured as a stall of the cache path. Age and max-age tell how
      // long the entry has left; when too little, wait for it to expire and refill it first.
      const ensureFresh = async (url: string): Promise<void> => {
        const r = await fetch(url);
        await r.arrayBuffer();
        const maxAge = Number(/max-age=(\d+)/.exec(r.headers.get('cache-control') ?? '')?.[1] ?? 0);
        const left = maxAge - Number(r.headers.get('age') ?? 0);
        if (r.headers.get('x-cache') === 'HIT' && left < Number(args.duration) + 2) {
          await sleep((left + 1) * 1000);
          await (await fetch(url)).arrayBuffer();
        }
      };
      const load = async (title: string, url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> => {
        if (url.startsWith(API) || url.startsWith(FIXED)) await ensureFresh(url);
        log(`${title}: ${args.duration} s, ${args.connections} connections`);
        return autocannon({ url, connections: Number(args.connections), duration: Number(args.duration), headers });
      };
      await load('warm-up', `${API}/api/v1/competitions`);
      const versionBefore = await versionReadCounts();
      const rounds: {
        bare: autocannon.Result;
        cached: autocannon.Result;
        r304: autocannon.Result;
        r200: autocannon.Result;
        fixed: autocannon.Result;
        bareBr: autocannon.Result;
        cachedBr: autocannon.Result;
      }[] = [];
      for (let i = 0; i < Number(args.rounds); i++) {
        rounds.push({
          bare: await load(`round ${i + 1}: bare node:http, same bytes`, BARE),
          cached: await load(`round ${i + 1}: API GET /competitions (cache HIT)`, `${API}/api/v1/competitions`),
          r304: await load(`round ${i + 1}: API GET /competitions with If-None-Match (304)`, `${API}/api/v1/competitions`, {
            'If-None-Match': etag,
          }),
          r200: await load(`round ${i + 1}: API GET /competitions again (200)`, `${API}/api/v1/competitions`),
          fixed: await load(`round ${i + 1}: diagnostic: same app, version read once`, `${FIXED}/api/v1/competitions`),
          bareBr: await load(`round ${i + 1}: bare node:http, same brotli bytes`, BARE_BR),
          cachedBr: await load(`round ${i + 1}: API GET /competitions in brotli (cache HIT)`, `${API}/api/v1/competitions`, {
            'Accept-Encoding': 'br',
          }),
        });
      }
      const pctOf = (a: autocannon.Result, b: autocannon.Result): number => (100 * a.requests.average) / b.requests.average;
      const row = (name: string, r: autocannon.Result, note = ''): string =>
        `${name.padEnd(44)} ${Math.round(r.requests.average).toString().padStart(8)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${String(r.non2xx).padStart(7)}  ${note}`;
      const out = [
        '',
        `API throughput (${args.connections} connections, ${args.duration} s each, ${rounds.length} interleaved rounds in one run; body ${Buffer.byteLength(body)} bytes;`,
        `${describeModel(model, throughputEvents)})`,
        `${'measurement'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non-2xx'.padStart(7)}`,
      ];
      rounds.forEach((r, i) => {
        out.push(
          `round ${i + 1}`,
          row('  bare node:http, same bytes', r.bare),
          row('  API cached GET /competitions (HIT)', r.cached, `${pctOf(r.cached, r.bare).toFixed(0)} % of bare`),
          row('  API 304 (If-None-Match)', r.r304, `${pctOf(r.r304, r.r200).toFixed(0)} % of the 200 path`),
          row('  API 200 (HIT)', r.r200),
          row(
            '  diagnostic: version read once (HIT)',
            r.fixed,
            `${pctOf(r.fixed, r.bare).toFixed(0)} % of bare; no per-request version read, not the service`,
          ),
          row('  bare node:http, same brotli bytes', r.bareBr),
          row('  API cached GET /competitions, br (HIT)', r.cachedBr, `${pctOf(r.cachedBr, r.bareBr).toFixed(0)} % of bare br`),
        );
      });
      const versionAfter = await versionReadCounts();
      const mix = await codingMix({
        origin: API,
        opsOrigin: 'http://127.0.0.1:19464',
        paths: [
          '/competitions',
          '/competitions?limit=100',
          '/competitions?limit=100&include=categories',
          '/competitions?sort=name&limit=50',
          '/dancers?limit=100',
          '/dancers?limit=100&page=2',
          '/clubs?limit=100',
          '/filters',
        ],
        seconds: Number(args.duration),
        connections: Number(args.connections),
        log,
      });
      const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      out.push(
        `median over rounds: cached = ${median(rounds.map((r) => pctOf(r.cached, r.bare))).toFixed(0)} % of bare (goal >= 80 %); ` +
          `304 = ${median(rounds.map((r) => pctOf(r.r304, r.r200))).toFixed(0)} % of the 200 path (goal >= 120 %); ` +
          `diagnostic, version read once = ${median(rounds.map((r) => pctOf(r.fixed, r.bare))).toFixed(0)} % of bare; ` +
          `brotli hit = ${median(rounds.map((r) => pctOf(r.cachedBr, r.bareBr))).toFixed(0)} % of bare serving the same bytes (goal >= 80 %)`,
        `version reads of the API during the rounds: ${versionAfter.reads - versionBefore.reads} started, ` +
          `${versionAfter.waits - versionBefore.waits} requests waited for one (a cache hit is meant never to wait)`,
        ...wire,
        ...mix,
      );
      process.stdout.write(`${out.join('\n')}\n`);
      record('throughput', out.join('\n'));
    } finally {
      bare.kill('SIGTERM');
      bareBr.kill('SIGTERM');
      await stopApi(fixed);
    }
  } finally {
    await stopApi(api);
  }
}

/**
 * Bytes on the wire of each path in each coding (a hit, after one request filled the cache), and
 * what one cache entry costs with its codings beside the plain bytes: with codings a cache of the
 * same size holds fewer entries, which bounds the hit ratio a flood of distinct URLs sees.
 */
/** The API's version-read counters (api/versionReadMetrics.ts) on its operators' port. */
async function versionReadCounts(): Promise<{ reads: number; waits: number }> {
  const samples = parsePrometheusText(await (await fetch('http://127.0.0.1:19464/metrics')).text());
  const total = (name: string): number => (samples.get(name) ?? []).reduce((sum, sample) => sum + sample.value, 0);
  return { reads: total('api_version_reads_total'), waits: total('api_version_read_waits_total') };
}

async function bytesOnTheWire(paths: readonly string[]): Promise<string[]> {
  const lines = ['bytes on the wire (cache HIT; plain / gzip / br; entry = plain + codings):'];
  for (const path of paths) {
    await rawGet(`${API}/api/v1${path}`, {});
    const [plain, gzip, br] = await Promise.all(
      ([{}, { 'Accept-Encoding': 'gzip' }, { 'Accept-Encoding': 'br' }] as Array<Record<string, string>>).map((headers) =>
        rawGet(`${API}/api/v1${path}`, headers),
      ),
    );
    const coded = gzip!.headers['content-encoding'] !== undefined;
    const entry = plain!.body.length + (coded ? gzip!.body.length + br!.body.length : 0);
    lines.push(
      `  ${path.padEnd(46)} ${String(plain!.body.length).padStart(8)} / ${String(gzip!.body.length).padStart(7)} / ${String(br!.body.length).padStart(7)}` +
        `  entry ${entry} B: ${(entry / plain!.body.length).toFixed(2)}x the plain bytes`,
    );
  }
  return lines;
}

async function uncachedLatency(): Promise<void> {
  const data = await benchData(Number(args.events));
  const { dbName, competitionIds, clubIds } = data;
  let api: ChildProcess | undefined = await startApi(dbName);
  try {
    // Uncached: every request has a cache key not seen before (X-Cache MISS, or BYPASS).
    const n = Number(args.samples);
    const uncached: Record<string, string[]> = {
      'GET /competitions': Array.from({ length: n }, (_, i) => `/competitions?page=${i + 2}&limit=${20 + i}`),
      'GET /competitions?search=': Array.from(
        { length: n },
        (_, i) =>
          `/competitions?search=${['open', 'cup', 'riga', 'dance', 'vilnius', 'latin', 'gran', 'spring', 'winter', 'kaunas'][i % 10]}&limit=${10 + i}`,
      ),
      'GET /competitions/{id}': competitionIds.map((id) => `/competitions/${id}`),
      'GET /competitions/{id}/categories': competitionIds.map((id) => `/competitions/${id}/categories`),
      'GET /dancers': Array.from({ length: n }, (_, i) => `/dancers?page=${i + 2}`),
      'GET /dancers?page= (deep)': Array.from({ length: n }, (_, i) => `/dancers?page=${200 + 37 * i}&limit=100`),
      'GET /dancers?country=': Array.from(
        { length: n },
        (_, i) => `/dancers?country=${['LV', 'LT', 'EE', 'PL', 'DE', 'FI', 'SE', 'NO', 'DK', 'CZ'][i % 10]}&page=${1 + (i % 3)}`,
      ),
      'GET /dancers?clubId=': clubIds.map((id) => `/dancers?clubId=${id}`),
      'GET /dancers?search=': Array.from(
        { length: n },
        (_, i) => `/dancers?search=${['an', 'jan', 'kal', 'ber', 'mar', 'ova', 'ski', 'ait', 'ien', 'ler'][i % 10]}`,
      ),
      'GET /coaches': Array.from({ length: n }, (_, i) => `/coaches?page=${i + 1}&limit=${30 + i}`),
      'GET /judges': Array.from({ length: n }, (_, i) => `/judges?page=${i + 1}&limit=${30 + i}`),
      'GET /clubs': Array.from({ length: n }, (_, i) => `/clubs?page=${i + 1}&limit=${30 + i}`),
      'GET /clubs?country=': Array.from(
        { length: n },
        (_, i) => `/clubs?country=${['LV', 'LT', 'EE', 'PL', 'DE', 'FI', 'SE', 'NO', 'DK', 'CZ'][i % 10]}`,
      ),
      'GET /clubs/{id}': clubIds.map((id) => `/clubs/${id}`),
    };
    // Bodies without a query: each sample needs an API with an empty cache.
    const perInstance: Record<string, string> = { 'GET /filters': '/filters', 'GET /registry/filters': '/registry/filters' };
    const where = process.env.MONGO_URL
      ? endpoints.mongoUrl
      : `${endpoints.mongoUrl} = local SecantusDB 0.5.3 (the stand-in; not MongoDB's figures)`;
    const lines = ['', `Uncached latency per endpoint, sequential, on ${where}, database ${dbName}`, describeModel(data, args.events)];
    // The stand-in's first query of a collection after it started, or after an index build,
    // scans the collection once per multikey index (README: local database); reported apart.
    const first: string[] = [];
    for (const listing of ['competitions', 'dancers', 'coaches', 'judges', 'clubs']) {
      const { ms } = await timedGet(`/${listing}?limit=1`);
      first.push(`${listing} ${ms.toFixed(0)}`);
    }
    lines.push(`first request per collection (ms): ${first.join(', ')}`);
    lines.push(`${'endpoint'.padEnd(36)} ${'n'.padStart(3)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  cache`);
    const report = (name: string, samples: Array<{ ms: number; outcome: string }>): void => {
      const times = samples.map((x) => x.ms).sort((a, b) => a - b);
      const pct = (p: number): string => (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN).toFixed(0);
      const outcomes = [...new Set(samples.map((x) => x.outcome))].join(', ');
      lines.push(`${name.padEnd(36)} ${String(times.length).padStart(3)} ${pct(0.5).padStart(8)} ${pct(0.99).padStart(8)}  ${outcomes}`);
    };
    const budget = Number(args['endpoint-seconds']) * 1000;
    for (const [name, paths] of Object.entries(uncached)) {
      const samples: Array<{ ms: number; outcome: string }> = [];
      const endpointStarted = performance.now();
      for (const path of paths) {
        if (samples.length > 0 && performance.now() - endpointStarted > budget) break;
        samples.push(await timedGet(path));
      }
      report(name, samples);
    }
    await stopApi(api);
    api = undefined;
    for (const [name, path] of Object.entries(perInstance)) {
      const samples: Array<{ ms: number; outcome: string }> = [];
      const endpointStarted = performance.now();
      for (let i = 0; i < n && (samples.length === 0 || performance.now() - endpointStarted < budget); i++) {
        const fresh = await startApi(dbName);
        try {
          // A request of another route first: the instance's first version read and connections are not the endpoint's cost.
          await timedGet('/competitions?limit=1');
          samples.push(await timedGet(path));
        } finally {
          await stopApi(fresh);
        }
      }
      report(`${name} (new instance each)`, samples);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    record('uncached', lines.join('\n'));
  } finally {
    if (api) await stopApi(api);
  }
}

/** One sequential request: its time to the last byte and `<status> <X-Cache>`. */
async function timedGet(path: string): Promise<{ ms: number; outcome: string }> {
  const began = performance.now();
  const r = await fetch(`${API}/api/v1${path}`);
  await r.arrayBuffer();
  return { ms: performance.now() - began, outcome: `${r.status} ${r.headers.get('x-cache')}` };
}

// Memory: the limiter's cost per tracked IP, and the cache's byte bound under pressure.
function memory(): void {
  (globalThis as { gc?: () => void }).gc?.();
  const heapBefore = process.memoryUsage();
  const limiter = new MemoryRateLimitStore({ limit: 300, windowSeconds: 60 });
  for (let i = 0; i < 100_000; i++)
    limiter.consume({
      key: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      nowMs: 1_700_000_000_000 + i,
      limit: 300,
      windowSeconds: 60,
    });
  (globalThis as { gc?: () => void }).gc?.();
  const heapAfter = process.memoryUsage();
  const cache = new BodyCache(8 * 1024 * 1024);
  let offered = 0;
  for (let i = 0; i < 20_000; i++) {
    const body = Buffer.alloc(1024 + (i % 7) * 512, 97);
    offered += body.length;
    cache.set(`/api/v1/dancers?page=${i}`, {
      body,
      etag: `W/"${i}"`,
      version: '1:1',
      storedAtMs: Date.now(),
      expiresAtMs: Date.now() + 60_000,
    });
  }
  const figures = [
    `rate limiter: 100,000 IPs tracked, structure ${(limiter.byteLength / 2 ** 20).toFixed(1)} MiB (${Math.round(limiter.byteLength / 100_000)} bytes/IP), heap+buffers delta ${((heapAfter.heapUsed + heapAfter.arrayBuffers - heapBefore.heapUsed - heapBefore.arrayBuffers) / 2 ** 20).toFixed(1)} MiB (goal < 50 MB, <= 200 bytes/IP)`,
    `response cache: bound 8.0 MiB, offered ${(offered / 2 ** 20).toFixed(1)} MiB in 20,000 bodies, holds ${(cache.bytes / 2 ** 20).toFixed(2)} MiB in ${cache.entries} entries (never above the bound)`,
  ].join('\n');
  process.stdout.write(`\n${figures}\n\n`);
  record('memory', figures);
}
