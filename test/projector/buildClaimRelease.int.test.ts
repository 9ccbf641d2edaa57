import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { META_COLLECTION, ensureMeta, readBuild, readMeta } from '../../services/mongo/index.ts';
import { READ_MODEL_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { projectorProcessEnv } from '../support/projectorProcessEnv.ts';
import { waitFor } from '../support/waitFor.ts';

// A build stopped by its operator (Ctrl-C on `npm run rebuild`, SIGTERM to a projector in the
// middle of a format upgrade) gives the build claim back as it stops. Without that, the claim
// stays until its heartbeat is stale (60 s): every other rebuild is refused and every other
// projector waits that long before it takes the upgrade over.

const config = { zone: 'UTC', bufferPeriodDays: 30 };
const history = [...createHistory({ seed: 13, events: 20_000, now: new Date() })];
const entry = (file: string): string => fileURLToPath(new URL(`../../projector/${file}`, import.meta.url));

describe('a build stopped by a signal', () => {
  let h: Harness;
  const running: NodeProcess[] = [];

  beforeAll(async () => {
    h = await createHarness({ partitions: 2, config });
    await h.produce(history);
  }, 120_000);
  afterAll(async () => {
    for (const run of running) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await h?.close();
  });

  async function launch(file: string): Promise<NodeProcess> {
    const run = spawnNode(entry(file), [], await projectorProcessEnv(h, { PROJECTOR_BOOTSTRAP_MIN_EVENTS: '0' }));
    running.push(run);
    return run;
  }

  /** Signals `run` once it holds the build claim; resolves with how long the claim outlived the signal. */
  async function stopWhileBuilding(run: NodeProcess, owner: RegExp, signal: NodeJS.Signals): Promise<number> {
    await waitFor(async () => expect((await readBuild(h.mongo.db))?.owner).toMatch(owner), 60_000, 50);
    const generation = (await readMeta(h.mongo.db)).generation;
    const signalled = performance.now();
    run.child.kill(signal);
    await waitFor(async () => expect(await readBuild(h.mongo.db)).toBeNull(), 30_000, 50);
    const held = performance.now() - signalled;
    expect(await run.exited).toBe(0);
    expect((await readMeta(h.mongo.db)).generation).toBe(generation);
    return held;
  }

  it('npm run rebuild, on Ctrl-C, gives its claim back and leaves the live generation', async () => {
    await ensureMeta(h.mongo.db);
    const rebuild = await launch('rebuild.ts');
    expect(await stopWhileBuilding(rebuild, /^npm run rebuild on /, 'SIGINT')).toBeLessThan(10_000);
  }, 120_000);

  it('a projector upgrading the format, on SIGTERM, gives its claim back', async () => {
    const { db } = h.mongo;
    // The live generation as an older projector left it: its meta records the format before this one.
    await db.collection<{ _id: string }>(META_COLLECTION).updateOne({ _id: 'current' }, { $set: { format: READ_MODEL_FORMAT - 1 } });
    expect((await readMeta(db)).format).toBe(READ_MODEL_FORMAT - 1);
    const projector = await launch('main.ts');
    expect(await stopWhileBuilding(projector, /^projector on /, 'SIGTERM')).toBeLessThan(10_000);
  }, 120_000);
});
