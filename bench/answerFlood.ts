// bench/api.ts --parts flood: the API process as every launch runs it (heap flags of
// scripts/api.node-flags) on a read model whose competitions of one city each carry the largest
// description one event can bring, flooded with its largest answers (every sort of the city's
// page of 100, the calendar, /filters) while an ordinary client keeps asking for small pages:
// the API's peak RSS, and the ordinary client's p50/p99 with and without the flood.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import autocannon from 'autocannon';
import { API_MEMORY_FLAGS } from '../api/memoryBound.ts';
import { DEFAULT_SESSION_TIMEOUT_MS } from '../projector/consume/consumerDefaults.ts';
import { MongoProjectionStore } from '../projector/write/mongoProjectionStore.ts';
import { projectEvents } from '../projector/write/projectEvents.ts';
import { projectionCollections } from '../projector/write/projectionCollections.ts';
import { ensureMeta, recordCurrentAt } from '../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../services/readModel/indexPlan.ts';
import { History, LV, competitionDetails, competitionId, venue } from '../test/api/eventBuilders.ts';

const PORT = 18090;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const FLOOD_ADDRESS = '127.0.0.2';
/** One event is one Kafka record of at most about 1 MB (docs/operating.md). */
const DESCRIPTION_BYTES = 980_000;

export interface FloodOptions {
  readonly mongoUrl: string;
  readonly competitions: number;
  readonly seconds: number;
  readonly connections: number;
  readonly log: (line: string) => void;
}

function description(n: number): string {
  const paragraph = `## Day ${n}\n\nRīgas **Latin** un *Standard* sacensības: fināli, dzīvā mūzika, ${'deju grīda '.repeat(40)}\n\n`;
  return paragraph.repeat(Math.floor(DESCRIPTION_BYTES / Buffer.byteLength(paragraph)));
}

async function seed(mongoUrl: string, dbName: string, competitions: number): Promise<void> {
  const client = await MongoClient.connect(mongoUrl);
  try {
    const db = client.db(dbName);
    await db.dropDatabase();
    const { generation } = await ensureMeta(db);
    await ensureReadModelIndexes(db, projectionCollections(generation));
    const store = new MongoProjectionStore(db, generation, { liveTransactionsWithinMs: DEFAULT_SESSION_TIMEOUT_MS });
    const now = new Date();
    for (let i = 0; i < competitions; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const history = new History(competitionId(700 + i))
        .at(
          '2025-01-01T10:00:00Z',
          'competition.drafted',
          competitionDetails(700 + i, {
            slug: `riga-flood-${i}`,
            name: `Riga Flood ${i}`,
            descriptionFormatted: description(i),
            dates: { start: `2031-03-${day}`, end: `2031-03-${day}` },
            location: venue(LV, 'Rīga', `Hall ${i}`),
          }),
        )
        .at('2025-01-01T10:01:00Z', 'competition.published', {});
      for (const event of history.events) await projectEvents([event], store, { zone: 'UTC', bufferPeriodDays: 30 }, now);
    }
    await recordCurrentAt(db, generation, now);
  } finally {
    await client.close();
  }
}

/** Reads one answer to its end, keeping only its length. */
function drain(path: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve) => {
    // From an address of its own: the flood is one client, the ordinary clients (autocannon, 127.0.0.1) others.
    const req = httpRequest({ host: '127.0.0.1', port: PORT, path: `/api/v1${path}`, headers, localAddress: FLOOD_ADDRESS }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', () => resolve({ status: -1, bytes }));
    });
    req.on('error', () => resolve({ status: -1, bytes: 0 }));
    req.end();
  });
}

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export async function answerFlood(options: FloodOptions): Promise<string[]> {
  const dbName = 'bench_answer_flood';
  options.log(`seeding ${options.competitions} competitions of one city with ${DESCRIPTION_BYTES} bytes of description each`);
  await seed(options.mongoUrl, dbName, options.competitions);
  const api = spawn(process.execPath, [...API_MEMORY_FLAGS, 'api/main.ts'], {
    env: {
      ...process.env,
      MONGO_URL: options.mongoUrl,
      MONGO_DB: dbName,
      API_PORT: String(PORT),
      API_OPS_PORT: '19490',
      API_PUBLIC_URL: ORIGIN,
      RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (
      let i = 0;
      !(await fetch(`${ORIGIN}/health/ready`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 300 || api.exitCode !== null) throw new Error('the API did not come up');
      await sleep(100);
    }
    const ordinary = (): Promise<autocannon.Result> =>
      autocannon({
        url: ORIGIN,
        connections: options.connections,
        duration: options.seconds,
        requests: [
          { path: '/api/v1/filters' },
          { path: '/api/v1/dancers?limit=5' },
          { path: '/api/v1/clubs?limit=5' },
          { path: '/api/v1/' },
        ],
      });
    options.log(`ordinary clients alone: ${options.seconds} s, ${options.connections} connections`);
    const alone = await ordinary();
    const paths = [
      ...['startDate', 'name', 'updatedAt', 'createdAt'].flatMap((sort) =>
        ['asc', 'desc'].map((order) => `/competitions?city=R%C4%ABga&limit=100&sort=${sort}&order=${order}`),
      ),
      '/competitions.ics?city=R%C4%ABga',
      '/competitions.ics',
      '/competitions.ics?country=LV',
      '/competitions.ics?sort=name',
      '/filters',
    ];
    let flooding = true;
    let peak = rssMb(api.pid!);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.pid!))), 100);
    const outcomes = { ok: 0, shed: 0, failed: 0, bytes: 0 };
    const floods = paths.map(async (path, i) => {
      while (flooding) {
        const reply = await drain(path, i % 3 === 0 ? { 'Accept-Encoding': 'gzip' } : {});
        outcomes.bytes += reply.bytes;
        if (reply.status === 200) outcomes.ok += 1;
        else if (reply.status === 503) outcomes.shed += 1;
        else outcomes.failed += 1;
      }
    });
    options.log(`ordinary clients under a flood of ${paths.length} parallel loops of the largest answers: ${options.seconds} s`);
    const flooded = await ordinary();
    flooding = false;
    await Promise.all(floods);
    clearInterval(sampler);
    const row = (name: string, r: autocannon.Result): string =>
      `${name.padEnd(40)} ${Math.round(r.requests.average).toString().padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
    return [
      '',
      `Largest answers: ${options.competitions} competitions of one city, ${DESCRIPTION_BYTES} bytes of Markdown each; API launched with ${API_MEMORY_FLAGS.join(' ')}`,
      row('ordinary clients alone', alone),
      row('ordinary clients under the flood', flooded),
      `ordinary clients' p99 under the flood / alone: ${(flooded.latency.p99 / Math.max(1, alone.latency.p99)).toFixed(2)} (goal <= 2; the flood is one client of its own address)`,
      `flood: ${outcomes.ok} answers of 200 (${(outcomes.bytes / 1048576).toFixed(0)} MiB read), ${outcomes.shed} of 503, ${outcomes.failed} failed or cut; API exited: ${api.exitCode ?? 'no'}`,
      `peak API RSS under the flood: ${peak.toFixed(0)} MB (container limit 512 MB)`,
    ];
  } finally {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
}
