import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { createProjectorMetrics } from '../../projector/metrics/projectorMetrics.ts';
import { rebuildReadModel } from '../../projector/rebuild/rebuildReadModel.ts';
import { runProjector, type RunningProjector } from '../../projector/runProjector.ts';
import { createRegistry } from '../../services/metrics/createRegistry.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { READ_MODEL_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { afterFreshnessBound, startApi, type ApiServer } from '../api/apiHarness.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { readModelSnapshot, referenceSnapshot } from '../support/readModelSnapshot.ts';
import { waitFor } from '../support/waitFor.ts';

// A deployed read model of an older format meets projectors of the newer one. The two formats
// here differ only by the number the meta document records (the test plays the older code with
// `format`), which is what the upgrade path reads; a layout change behind a bump rides on it.
const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const OLDER = READ_MODEL_FORMAT - 1;
const PATHS = [
  '/api/v1/dancers?limit=50',
  '/api/v1/competitions?limit=20',
  '/api/v1/clubs?sort=name',
  '/api/v1/coaches?limit=30',
  '/api/v1/judges',
  '/api/v1/filters',
  '/api/v1/registry/filters',
  '/api/v1/dancers?search=an&limit=10',
];

/** A projector instance whose log lines the test reads. */
async function startProjector(h: Harness, format: number, lines: string[]): Promise<RunningProjector> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '') lines.push(String((JSON.parse(line) as { msg: unknown }).msg));
      done();
    },
  });
  return runProjector({
    ...h.context(NOW),
    clockSchedule: '0 0 0 1 1 *',
    metrics: createProjectorMetrics(createRegistry('test', false)),
    logger: pino({ level: 'info' }, sink),
    generationPollMs: 300,
    format,
    upgrade: { pollMs: 200, heartbeatMs: 500 },
  });
}

/** GETs the paths round and round until stopped; every status counted. */
function traffic(api: ApiServer): { stop(): Promise<Map<number, number>> } {
  const statuses = new Map<number, number>();
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const { status } = await api.request(PATHS[i % PATHS.length]!);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return statuses;
    },
  };
}

describe('a read model of an older format', () => {
  let h: Harness | undefined;
  let api: ApiServer | undefined;
  const running: RunningProjector[] = [];
  afterAll(async () => {
    for (const projector of running) await projector.stop();
    await api?.close();
    await h?.close();
  });

  it('is rebuilt in the newer format by one of two new projectors while the API serves it, and answers as a clean rebuild', async () => {
    h = await createHarness({ partitions: 3, config });
    const history = [...createHistory({ seed: 5, events: 3000, now: NOW })];
    const before = history.slice(0, 2200);
    await h.produce(before);
    const olderLog: string[] = [];
    const older = await startProjector(h, OLDER, olderLog);
    await waitFor(async () => expect(await readModelSnapshot(h!.mongo.db, 1)).toEqual(referenceSnapshot(before, config, NOW)));
    await older.stop();
    expect(await readMeta(h.mongo.db)).toMatchObject({ generation: 1, format: OLDER });

    // Requests all along; events keep arriving while the newer projectors upgrade.
    api = await startApi(h.mongo.db, NOW);
    const requests = traffic(api);
    const producing = (async () => {
      for (let i = 2200; i < history.length; i += 100) {
        await h.produce(history.slice(i, i + 100));
        await sleep(100);
      }
    })();
    const logs: string[][] = [[], []];
    running.push(...(await Promise.all(logs.map((lines) => startProjector(h!, READ_MODEL_FORMAT, lines)))));
    await producing;

    expect(await readMeta(h.mongo.db)).toMatchObject({ generation: 2, format: READ_MODEL_FORMAT });
    const builders = logs.filter((lines) => lines.includes('upgrading the read model to the format of this projector'));
    expect(builders, 'one instance builds the new format').toHaveLength(1);
    expect(logs.flat().filter((line) => line === 'rebuild started')).toHaveLength(1);
    await waitFor(async () => expect(await readModelSnapshot(h!.mongo.db, 2)).toEqual(referenceSnapshot(history, config, NOW)));
    const statuses = await requests.stop();
    expect([...statuses.keys()], 'every request answered 200').toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(PATHS.length);

    // The answers of the upgraded model are those of a clean rebuild of the same events.
    await afterFreshnessBound();
    const upgraded = await Promise.all(PATHS.map((path) => api!.request(path)));
    await rebuildReadModel({ ...h.context(NOW), dropAfterMs: 0 });
    expect((await readMeta(h.mongo.db)).generation).toBe(3);
    await afterFreshnessBound();
    const rebuilt = await Promise.all(PATHS.map((path) => api!.request(path)));
    for (const [i, path] of PATHS.entries()) expect(rebuilt[i]!.json, path).toEqual(upgraded[i]!.json);
  }, 240_000);
});
