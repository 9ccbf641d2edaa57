import { fileURLToPath } from 'node:url';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFederationClient, type Change, type ChangeFeedGoneError, type ChangePage } from '../../client/index.ts';
import { createHistory } from '../../generator/createHistory.ts';
import { liveGroupId } from '../../projector/consume/liveGroupId.ts';
import { rebuildReadModel } from '../../projector/rebuild/rebuildReadModel.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { History, competitionDetails, competitionId } from '../api/eventBuilders.ts';
import { expectFeedMatchesListings } from '../support/feedMatchesListings.ts';
import { testServers } from '../support/isolation.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { waitFor } from '../support/waitFor.ts';
import { faultProjectorOptions } from './support/faultProjectorOptions.ts';
import type { FaultProjectorOptions } from './support/faultProjectorProcess.ts';
import { freePorts } from './support/freePort.ts';
import { msUntilStatus } from './support/httpProbe.ts';
import { spawnNode, type NodeProcess } from './support/spawnNode.ts';

// One follower of the change feed (the typed client's iterator, from the feed's start) through
// every fault the feed must survive, on real processes: a projector process killed with SIGKILL
// mid-batch and replaced, the API process stopped and started again on the same port (the
// iterator resumes by itself), a time-driven transition falling due under the projector's clock
// (a registration deadline passing midnight, swept every second), and a rebuild (the old
// generation's cursor answers 410: the follower resyncs from meta.latest and the listings, as
// docs/calling.md says, and goes on). At the end what the follower holds is what the listings
// show, and it received every change of the feed once, in cursor order.

const config = { zone: 'UTC', bufferPeriodDays: 30 };
const servers = testServers();
const projectorEntry = fileURLToPath(new URL('./support/faultProjectorProcess.ts', import.meta.url));
const apiEntry = fileURLToPath(new URL('../../api/main.ts', import.meta.url));
/** The projector's clock reads this at the test's start and runs on: midnight falls due about 65 s in. */
const CLOCK_START = new Date('2026-11-23T23:58:55Z');
const MIDNIGHT = '2026-11-24T00:00:00.000Z';
const LISTINGS = { competition: 'competitions', dancer: 'dancers', coach: 'coaches', judge: 'judges', club: 'clubs' } as const;

const history = [...createHistory({ seed: 35, events: 500, now: new Date('2026-11-23T12:00:00Z') })];
const waves = [0, 1, 2, 3, 4].map((i) => history.slice((i * history.length) / 5, ((i + 1) * history.length) / 5));

let h: Harness;
let admin: Admin;
let nowAtMs: number;
let options: FaultProjectorOptions;
let apiPort: number;
let apiOps: number;
const running: NodeProcess[] = [];
let produced = 0;

const clock = (): Date => new Date(CLOCK_START.getTime() + Date.now() - nowAtMs);
const origin = (): string => `http://127.0.0.1:${apiPort}/api/v1`;

function startProjector(): NodeProcess {
  const run = spawnNode(projectorEntry, [JSON.stringify(options)]);
  running.push(run);
  return run;
}

async function startApi(): Promise<NodeProcess> {
  const api = spawnNode(apiEntry, [], {
    ...process.env,
    LOG_LEVEL: 'warn',
    MONGO_URL: servers.mongoUrl,
    MONGO_DB: h.mongo.db.databaseName,
    KAFKA_BROKERS: servers.kafkaBrokers.join(','),
    API_PORT: String(apiPort),
    API_OPS_PORT: String(apiOps),
    API_PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
    CALENDAR_TIME_ZONE: config.zone,
  });
  running.push(api);
  await msUntilStatus(`http://127.0.0.1:${apiOps}/health/ready`, 200, 60_000);
  return api;
}

async function produce(events: Parameters<Harness['produce']>[0]): Promise<void> {
  await h.produce(events);
  produced += events.length;
}

/** Every public resource as the listings show it now: `type|id` → updatedAt (persons and clubs: their own stamp or null). */
async function readListings(): Promise<Map<string, string | null>> {
  const all = new Map<string, string | null>();
  // Archived persons and clubs stay public (the feed announces archival as a change): both registry states.
  const reads = Object.entries(LISTINGS).flatMap(([type, path]) =>
    type === 'competition'
      ? [[type, path]]
      : [
          [type, `${path}?registryState=REGISTRY&`],
          [type, `${path}?registryState=ARCHIVE&`],
        ],
  );
  for (const [type, path] of reads) {
    for (let page = 1; ; page++) {
      const query = path!.includes('?') ? path! : `${path!}?`;
      const body = (await (await fetch(`${origin()}/${query}limit=100&page=${page}`)).json()) as {
        data: { id: string; updatedAt?: string }[];
        meta: { hasNextPage: boolean };
      };
      for (const item of body.data) all.set(`${type}|${item.id}`, item.updatedAt ?? null);
      if (!body.meta.hasNextPage) break;
    }
  }
  return all;
}

/** The whole feed the API serves now, from its oldest change kept. */
async function wholeFeed(): Promise<Change[]> {
  const all: Change[] = [];
  for (let after: string | undefined; ;) {
    const page = (await (await fetch(`${origin()}/changes?limit=100${after === undefined ? '' : `&after=${after}`}`)).json()) as ChangePage;
    all.push(...page.data);
    if (!page.meta.hasMore) return all;
    after = page.meta.last;
  }
}

const position = (cursor: string): [number, number] => cursor.split('.').map(Number) as [number, number];

/** What the follower holds: resources public after its resync and the changes it applied since. */
class Follower {
  readonly received: Change[] = [];
  readonly gone: ChangeFeedGoneError[] = [];
  resyncedFrom: string | null = null;
  /** The cursor it goes on from: its last change's, or the latest it resynced at. */
  at: string | null = null;
  /** Why the iteration ended early, if it did. */
  failure: Error | null = null;
  held = new Map<string, true>();
  private readonly stop = new AbortController();
  private following: Promise<void> = Promise.resolve();

  start(): void {
    const api = createFederationClient(origin(), { retry: { baseDelayMs: 100, maxDelayMs: 500 } });
    const onGone = async (error: ChangeFeedGoneError): Promise<string> => {
      this.gone.push(error);
      // The recipe: meta.latest first, then the listings; changes after latest come again (harmless).
      const { meta } = (await (await fetch(`${origin()}/changes?limit=1`)).json()) as ChangePage;
      this.held = new Map([...(await readListings()).keys()].map((key) => [key, true]));
      this.resyncedFrom = meta.latest;
      this.at = meta.latest;
      return meta.latest;
    };
    this.following = (async () => {
      for await (const change of api.changes({ waitSeconds: 5, limit: 100, signal: this.stop.signal, onGone })) {
        this.received.push(change);
        this.at = change.cursor;
        const key = `${change.type}|${change.id}`;
        if (change.action === 'removed') this.held.delete(key);
        else this.held.set(key, true);
      }
    })();
    this.following.catch((error: unknown) => (this.failure = error instanceof Error ? error : new Error(String(error))));
  }

  async end(): Promise<void> {
    this.stop.abort();
    await this.following;
  }
}

/** Every event folded and announced: offsets committed, the feed equal to the documents, the follower at the feed's end. */
async function settled(follower: Follower): Promise<number> {
  return waitFor(
    async () => {
      if (follower.failure !== null) throw follower.failure;
      const { generation } = await readMeta(h.mongo.db);
      expect(await committedTotalOf(generation)).toBe(produced);
      await expectFeedMatchesListings(h.mongo.db, generation, { sinceRebuild: generation > 1 });
      const { meta } = (await (await fetch(`${origin()}/changes?limit=1`)).json()) as ChangePage;
      expect(follower.at).toBe(meta.latest);
      return generation;
    },
    60_000,
    500,
  );
}

async function committedTotalOf(generation: number): Promise<number> {
  const offsets = await admin.fetchOffsets({ groupId: liveGroupId(h.groupId, generation), topics: [h.topic] });
  return offsets.flatMap((t) => t.partitions).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
}

beforeAll(async () => {
  h = await createHarness({ partitions: 3, config });
  admin = h.kafka.admin();
  await admin.connect();
  [apiPort, apiOps] = await freePorts(2);
  nowAtMs = Date.now();
  options = { ...faultProjectorOptions(servers, h, { now: CLOCK_START, config, chunkSize: 10, logLevel: 'warn' }), nowAtMs };
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await admin?.disconnect();
  await h?.mongo.db.dropDatabase().catch(() => undefined);
  await h?.close();
}, 60_000);

describe('a change feed follower through a projector kill, an API restart, a clock transition and a rebuild', () => {
  it('receives exactly the changes the listings show: none twice, none missing, in cursor order', { timeout: 150_000 }, async () => {
    let projector = startProjector();
    await projector.afterLines('running', 1);
    const api = await startApi();
    const follower = new Follower();
    follower.start();

    // Wave 1, with a competition whose registration closes at the projector's next midnight.
    const deadline = new History(competitionId(1))
      .at(
        clock().toISOString(),
        'competition.drafted',
        competitionDetails(1, {
          slug: 'deadline-at-midnight',
          dates: { start: '2027-05-01', end: '2027-05-02' },
          registration: { status: 'open', opensAt: null, deadline: '2026-11-23', maxEntries: null, externalUrl: null },
        }),
      )
      .at(clock().toISOString(), 'competition.published', {});
    await produce([...deadline.events, ...waves[0]!]);
    await settled(follower);
    const afterWave1 = follower.received.length;
    expect(afterWave1).toBeGreaterThan(0);
    const key = `competition|${competitionId(1)}`;
    // Listed before midnight (its updatedAt its publication), so the transition is a change of its own.
    expect((await readListings()).get(key)).toMatch(/^2026-11-23T23:5/);

    // Wave 2, and the projector killed with SIGKILL mid-batch, then replaced.
    const wrote = projector.count('wrote ');
    await produce(waves[1]!);
    await projector.afterLines('wrote ', wrote + 6);
    projector.child.kill('SIGKILL');
    expect(await projector.exited).toBe('SIGKILL');
    projector = startProjector();
    await projector.afterLines('running', 1);
    await settled(follower);
    expect(follower.received.length).toBeGreaterThan(afterWave1);

    // The API stopped and started again on the same port; wave 3 produced while it is down.
    const beforeRestart = follower.received.length;
    await api.stop();
    await produce(waves[2]!);
    await startApi();
    await settled(follower);
    expect(follower.received.length).toBeGreaterThan(beforeRestart);

    // The clock: past midnight (by now, or soon) the deadline's competition changes with no event
    // (its updatedAt becomes midnight), and the follower is told.
    await waitFor(async () => expect((await readListings()).get(key)).toBe(MIDNIGHT), 90_000, 500);
    await settled(follower);
    expect(follower.received.filter((c) => `${c.type}|${c.id}` === key).map((c) => c.action)).toEqual(['created', 'changed']);
    await produce(waves[3]!);
    const generation1 = await settled(follower);
    const feed1 = await wholeFeed();
    expect(follower.received.map((c) => c.cursor)).toEqual(feed1.map((c) => c.cursor));

    // A rebuild (the running projector follows the switch); wave 5 after it.
    const rebuilt = await rebuildReadModel({ ...h.context(CLOCK_START), clock, dropAfterMs: 0 });
    expect(rebuilt.from).toBe(generation1);
    // Its cursor answers 410 now: the follower resyncs by itself; wave 5 comes after that.
    await waitFor(() => Promise.resolve(expect(follower.resyncedFrom).not.toBeNull()), 30_000, 200);
    await produce(waves[4]!);
    const generation2 = await settled(follower);
    expect(generation2).toBe(generation1 + 1);
    expect(follower.gone).toHaveLength(1);
    expect(follower.gone[0]).toMatchObject({ status: 410, error: { type: 'CURSOR_EXPIRED' } });
    await follower.end();

    // What the follower holds is what the listings show.
    const listed = await readListings();
    expect([...follower.held.keys()].sort()).toEqual([...listed.keys()].sort());
    expect(listed.get(key)).toBe(MIDNIGHT);
    // None twice, none missing, in cursor order: the old generation's feed up to the rebuild,
    // then the new one's from the latest read at the resync.
    const cursors = follower.received.map((c) => c.cursor);
    expect(new Set(cursors).size).toBe(cursors.length);
    const sorted = [...cursors].sort((a, b) => position(a)[0] - position(b)[0] || position(a)[1] - position(b)[1]);
    expect(cursors).toEqual(sorted);
    const feed2 = (await wholeFeed()).filter((c) => position(c.cursor)[1] > position(follower.resyncedFrom!)[1]);
    expect(cursors).toEqual([...feed1, ...feed2].map((c) => c.cursor));
    expect(new Set(cursors.map((c) => position(c)[0]))).toEqual(new Set([generation1, generation2]));
    // Every resource wave 5 made visible or changed came through the new generation's feed.
    expect((await expectFeedMatchesListings(h.mongo.db, generation2, { sinceRebuild: true })).resources).toBeGreaterThan(0);
    console.info(
      `[feed-faults] ${JSON.stringify({ received: cursors.length, generation1: feed1.length, generation2: feed2.length, listed: listed.size })}`,
    );
  });
});
