import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../generator/createHistory.ts';
import { bootstrapFromTopic } from '../projector/bootstrap/bootstrapFromTopic.ts';
import { recordFreshness } from '../projector/freshness/recordFreshness.ts';
import type { ProjectorContext } from '../projector/projectorContext.ts';
import { runProjector, type RunningProjector } from '../projector/runProjector.ts';
import { readProjectorStatus } from '../projector/status/readProjectorStatus.ts';
import { collectionName, readMeta } from '../services/mongo/index.ts';
import { projectorCollections, readCollections } from '../services/readModel/documents.ts';
import {
  MEMBER_FACTS_INDEX,
  MEMBER_LINKS_INDEX,
  ensureReadModelIndexes,
  planFor,
  queryShapes,
  readCollectionIndexes,
  type ReadListing,
} from '../services/readModel/indexPlan.ts';
import { startApi, type ApiServer } from './api/apiHarness.ts';
import { dataEndpoints, endpointRequests, type MatrixValues } from './queryPlans/apiRequestMatrix.ts';
import { CommandCapture, type CapturedShape } from './queryPlans/commandCapture.ts';
import { collectionFamily } from './queryPlans/commandShape.ts';
import { PLAN_EXEMPTIONS, type PlanExemption } from './queryPlans/planExemptions.ts';
import { BLOCKING_SORT_STAGES, SCAN_STAGES, summarizePlan, type PlanSummary } from './queryPlans/winningPlan.ts';
import { createHarness, type Harness } from './support/projectorHarness.ts';
import { testServers } from './support/isolation.ts';
import { waitFor } from './support/waitFor.ts';

// Plans checked by the planner: every statement the projector, its clock and the API send to a
// seeded database is captured on the wire (the driver's command monitoring), one per shape, and
// `explain` must show it served by an index: no collection scan, and no in-memory sort where a
// sort is asked for. Nothing here lists a query: a new filter, sort, endpoint or writer query is
// sent and checked because the code sends it. Exemptions live in planExemptions.ts, with reasons.

const HISTORY_END = new Date('2026-11-23T12:00:00Z');
/** The clock sweeps a year and more later, so that registrations, periods and registry states fall due. */
const SWEEP_AT = new Date('2028-01-10T12:00:00Z');
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const history = [...createHistory({ seed: 14, events: 6000, now: HISTORY_END })];
/** Most of the history fills the empty read model as a first start does; the rest arrives live. */
const BOOTSTRAPPED = Math.floor(history.length * 0.75);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Checked {
  readonly captured: CapturedShape;
  readonly plan: PlanSummary;
  readonly problems: string[];
}

const monitoredClient = (): Promise<MongoClient> =>
  MongoClient.connect(testServers().mongoUrl, { monitorCommands: true, appName: 'federation-read' });

/** Pages through the requests a few at a time (the API is in process; the database is shared with other test files). */
async function requestAll(api: ApiServer, paths: readonly string[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  for (let i = 0; i < paths.length; i += 16) {
    await Promise.all(
      paths.slice(i, i + 16).map(async (path) => {
        const reply = await api.request(`/api/v1${path}`);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        // Only an id that exists nowhere may answer 404; everything else must be served.
        if (reply.status !== 200 && !(reply.status === 404 && path.includes(UNKNOWN_ID)))
          failures.push(`${path} → ${reply.status} ${reply.text.slice(0, 200)}`);
      }),
    );
  }
  expect(failures).toEqual([]);
  return statuses;
}

function problemsOf(captured: CapturedShape, plan: PlanSummary, used: Set<PlanExemption>): string[] {
  const problems: string[] = [];
  const check = (stage: 'COLLSCAN' | 'SORT', found: boolean): void => {
    if (!found) return;
    const exemption = PLAN_EXEMPTIONS.find((e) => e.stage === stage && e.matches(captured.command));
    if (exemption) used.add(exemption);
    else problems.push(stage === 'COLLSCAN' ? 'collection scan' : 'in-memory sort');
  };
  check(
    'COLLSCAN',
    plan.stages.some((s) => SCAN_STAGES.has(s)),
  );
  check(
    'SORT',
    plan.stages.some((s) => BLOCKING_SORT_STAGES.has(s)),
  );
  return problems;
}

function summaryTable(checked: readonly Checked[]): string {
  const rows = new Map<string, { n: number; sources: Set<string>; example: string; problems: Set<string> }>();
  for (const { captured, plan, problems } of checked) {
    const { name, collection } = captured.command;
    const key = [collectionFamily(collection), name, plan.stages.join('>'), [...new Set(plan.indexes)].join(',') || '-'].join(' | ');
    const row = rows.get(key) ?? { n: 0, sources: new Set<string>(), example: captured.shape, problems: new Set<string>() };
    row.n++;
    for (const s of captured.sources) row.sources.add(s);
    for (const p of problems) row.problems.add(p);
    rows.set(key, row);
  }
  const lines = [...rows.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([key, row]) =>
        `${row.problems.size > 0 ? '✗' : '✓'} ${key} | ${row.n} shape(s) | ${[...row.sources].sort().join(',')} | e.g. ${row.example.slice(0, 300)}`,
    );
  return ['collection | statement | winning-plan stages | index | shapes | sent by | example shape', ...lines].join('\n');
}

describe('query plans on a seeded database (explain, queryPlanner)', () => {
  let h: Harness;
  let capture: CommandCapture;
  let projectorClient: MongoClient;
  let apiClient: MongoClient;
  let db: Db;
  let api: ApiServer | undefined;
  const checked: Checked[] = [];
  const usedExemptions = new Set<PlanExemption>();

  beforeAll(async () => {
    h = await createHarness({ partitions: 3, config });
    capture = new CommandCapture(h.mongo.db.databaseName);
    projectorClient = await monitoredClient();
    apiClient = await monitoredClient();
    capture.listen(projectorClient);
    capture.listen(apiClient, 'api');
    db = projectorClient.db(h.mongo.db.databaseName);

    // The projector as its process runs it: the bootstrap of an empty read model, then the live
    // consumer (guarded writes over existing documents), the freshness record, then a clock sweep.
    const began = performance.now();
    const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;
    capture.source = 'projector';
    const clock = { now: HISTORY_END };
    const context: ProjectorContext = {
      db,
      kafka: h.kafka,
      topic: h.topic,
      dlqTopic: h.dlqTopic,
      groupId: h.groupId,
      projection: config,
      clock: () => clock.now,
      metrics: h.metrics,
      logger: h.logger,
      ensureIndexes: ensureReadModelIndexes,
      chunkSize: 500,
    };
    await h.produce(history.slice(0, BOOTSTRAPPED));
    expect(await bootstrapFromTopic(context, { minEvents: 1 })).toBe(true);
    const projector: RunningProjector = await runProjector({ ...context, clockSchedule: '0 0 0 1 1 *', generationPollMs: 500 });
    const admin = h.kafka.admin();
    await admin.connect();
    const status = { admin, db, topic: h.topic, dlqTopic: h.dlqTopic, groupId: h.groupId };
    const stopFreshness = recordFreshness({ ...status, logger: h.logger, everyMs: 200 });
    try {
      await h.produce(history.slice(BOOTSTRAPPED));
      await waitFor(async () => expect((await readProjectorStatus(status)).totalLag).toBe(0), 120_000, 250);
      capture.source = 'clock';
      clock.now = SWEEP_AT;
      await projector.sweep();
    } finally {
      stopFreshness();
      await projector.stop();
      await admin.disconnect();
    }

    const projectedIn = seconds(began);
    // The API over what the projector made, through every endpoint and query shape.
    // Looked up and explained through the harness's own client, which the capture does not hear.
    const probe = h.mongo.db;
    const live = (await readMeta(probe)).generation;
    const competition = await probe
      .collection(collectionName('competitions', live))
      .findOne({ visible: true }, { projection: { id: 1, slug: 1 } });
    const club = await probe.collection(collectionName('clubs', live)).findOne({ registryState: 'REGISTRY' }, { projection: { _id: 1 } });
    expect(competition && club).toBeTruthy();
    const values: MatrixValues = {
      pathValues: { idOrSlug: [String(competition!.id), String(competition!.slug), UNKNOWN_ID], id: [String(club!._id), UNKNOWN_ID] },
      // Several search tokens, one, and none: two combining accents pass the schema and fold to nothing.
      textCandidates: ['Rīga', 'ri', '\u0301\u0301'],
      id: String(club!._id),
      today: SWEEP_AT.toISOString().slice(0, 10),
    };
    // The matrix is one client's waves of 16: its queue may hold a whole wave (the per-client share is fairShare.int's subject, not this test's).
    api = await startApi(apiClient.db(h.mongo.db.databaseName), SWEEP_AT, { API_WORK_QUEUE_PER_CLIENT: '64' });
    const paths = dataEndpoints().flatMap((endpoint) => endpointRequests(endpoint, values));
    const requested = performance.now();
    const statuses = await requestAll(api, paths);
    process.stdout.write(
      `query plans: ${history.length} events projected and swept in ${projectedIn}; ${paths.length} API requests (${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}) in ${seconds(requested)}\n`,
    );
    const explained = performance.now();

    // One explain per shape, on the live generation (the bootstrap dropped the one it replaced).
    for (const captured of capture.shapes.values()) {
      const { explain, name, collection } = captured.command;
      const target = collection.replace(/_g\d+$/, `_g${live}`);
      const plan = summarizePlan(await probe.command({ explain: { ...explain, [name]: target }, verbosity: 'queryPlanner' }));
      checked.push({ captured, plan, problems: problemsOf(captured, plan, usedExemptions) });
    }
    process.stdout.write(`query plans: ${checked.length} shapes explained in ${seconds(explained)}\n${summaryTable(checked)}\n`);
  }, 600_000);

  afterAll(async () => {
    await api?.close();
    await apiClient?.close();
    await projectorClient?.close();
    await h?.close();
  });

  it('saw the projector, its clock and every endpoint send queries', () => {
    const sources = new Set(checked.flatMap((c) => [...c.captured.sources]));
    expect([...sources].sort()).toEqual(['api', 'clock', 'projector']);
    const sentBy = (source: string) => checked.filter((c) => c.captured.sources.has(source));
    expect(sentBy('projector').some((c) => c.captured.command.name === 'update')).toBe(true);
    expect(
      sentBy('clock')
        .filter((c) => JSON.stringify(c.captured.command.explain.filter ?? {}).includes('nextDueAt'))
        .map((c) => collectionFamily(c.captured.command.collection))
        .sort(),
    ).toEqual(['clubs', 'coaches', 'competitions', 'dancers', 'judges']);
    expect(checked.length).toBeGreaterThan(100);
    // The search that folds to nothing (matches nothing) was sent too.
    expect(sentBy('api').some((c) => c.captured.shape.includes('{"_id":{"$in":[]}}'))).toBe(true);
  });

  it('no statement scans a collection or sorts in memory, unless exempted with a reason', () => {
    const failing = checked
      .filter((c) => c.problems.length > 0)
      .map(
        (c) =>
          `${c.problems.join(' and ')}: ${c.captured.shape} (${c.plan.stages.join('>')}, sent by ${[...c.captured.sources].join(',')})`,
      );
    expect(failing).toEqual([]);
  });

  it('every exemption is needed by a statement the workload sends', () => {
    expect(PLAN_EXEMPTIONS.filter((e) => !usedExemptions.has(e)).map((e) => e.reason)).toEqual([]);
  });

  it('every index of the table serves some query (an index nothing uses only slows the writer)', () => {
    const used = new Set(
      checked.flatMap((c) => c.plan.indexes.map((index) => `${collectionFamily(c.captured.command.collection)}.${index}`)),
    );
    const listings = Object.keys(readCollections) as ReadListing[];
    const planned = [
      ...listings.flatMap((listing) => readCollectionIndexes(listing).map((i) => `${readCollections[listing]}.${String(i.name)}`)),
      ...[MEMBER_LINKS_INDEX, MEMBER_FACTS_INDEX].map((i) => `${projectorCollections.memberLinks}.${String(i.name)}`),
    ];
    expect(planned.filter((name) => !used.has(name))).toEqual([]);
  });

  it('every planned API index is hinted by a request, so the matrix reaches every shape of the plan', () => {
    const hinted = new Set(
      checked
        .filter((c) => c.captured.sources.has('api'))
        .map((c) => `${collectionFamily(c.captured.command.collection)}.${String(c.captured.command.explain.hint)}`),
    );
    const listings = Object.keys(readCollections) as ReadListing[];
    const planned = listings.flatMap((listing) =>
      queryShapes(listing).map((shape) => `${readCollections[listing]}.${planFor(shape).index.name}`),
    );
    expect(planned.filter((name) => !hinted.has(name))).toEqual([]);
  });
});
