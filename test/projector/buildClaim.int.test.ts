import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { bootstrapFromTopic } from '../../projector/bootstrap/bootstrapFromTopic.ts';
import { rebuildReadModel } from '../../projector/rebuild/rebuildReadModel.ts';
import {
  beatBuild,
  claimBootstrap,
  claimBuild,
  databaseNow,
  ensureMeta,
  giveBackBuild,
  readBuild,
  readMeta,
  releaseBuild,
  switchGeneration,
} from '../../services/mongo/index.ts';
import { READ_MODEL_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { StartRefused } from '../../services/runMain.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';

// One process builds the next generation at a time: an operator's rebuild, a format upgrade and
// a bootstrap all clear and fill generation N+1, so a second one started beside the first would
// wipe what the first had written. They share one claim on the meta document.
const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const claimOf = (owner: string, from = 1) => ({ format: READ_MODEL_FORMAT, from, owner });

describe('the build claim of the next generation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ partitions: 2, config });
    await ensureMeta(h.mongo.db);
  });
  afterAll(() => h.close());

  it('is held by one owner at a time, taken over only when its heartbeat is stale, and needed to switch', async () => {
    const { db } = h.mongo;
    expect(await claimBuild(db, claimOf('a'), NOW, 60_000)).toBe(true);
    expect(await claimBuild(db, claimOf('b'), new Date(NOW.getTime() + 30_000), 60_000)).toBe(false);
    expect(await claimBuild(db, claimOf('a'), new Date(NOW.getTime() + 30_000), 60_000)).toBe(true);
    expect(await beatBuild(db, 'a', new Date(NOW.getTime() + 40_000))).toBe(true);
    expect(await claimBuild(db, claimOf('b'), new Date(NOW.getTime() + 90_000), 60_000)).toBe(false);
    expect(await claimBuild(db, claimOf('b'), new Date(NOW.getTime() + 101_000), 60_000)).toBe(true);
    expect(await beatBuild(db, 'a', new Date(NOW.getTime() + 102_000))).toBe(false);
    expect(await switchGeneration(db, 1, 2, { format: READ_MODEL_FORMAT, owner: 'a' })).toBe(false);
    await releaseBuild(db, 'a');
    expect((await readBuild(db))?.owner).toBe('b');
    await releaseBuild(db, 'b');
    expect(await readBuild(db)).toBeNull();
  });

  it('is given back for good by a stopping process, after a claim still on its way has landed', async () => {
    // A stop (SIGTERM) while the build is taking its claim: the claim must not outlive the process.
    const { db } = h.mongo;
    const claiming = claimBuild(db, claimOf('stopping'), NOW, 60_000);
    await giveBackBuild(db, 'stopping');
    expect(await claiming).toBe(true);
    expect(await readBuild(db)).toBeNull();
    expect(await claimBuild(db, claimOf('stopping'), NOW, 60_000)).toBe(false);
    expect(await readBuild(db)).toBeNull();
    // Another owner is not affected.
    expect(await claimBuild(db, claimOf('c'), NOW, 60_000)).toBe(true);
    await releaseBuild(db, 'c');
  });

  it('refuses a rebuild while another process builds, leaving that one its claim and the live generation', async () => {
    const events = [...createHistory({ seed: 5, events: 300, now: NOW })];
    await h.produce(events);
    const { db } = h.mongo;
    const { generation } = await readMeta(db);
    expect(await claimBuild(db, claimOf('projector-upgrading', generation), await databaseNow(db), 60_000)).toBe(true);
    const refused = rebuildReadModel({ ...h.context(NOW), dropAfterMs: 0 });
    await expect(refused).rejects.toBeInstanceOf(StartRefused);
    await expect(refused).rejects.toThrow(/projector-upgrading/);
    expect((await readBuild(db))?.owner).toBe('projector-upgrading');
    expect((await readMeta(db)).generation).toBe(generation);

    // Once the claim is given back, the same rebuild runs, switches, and leaves no claim behind.
    await releaseBuild(db, 'projector-upgrading');
    const result = await rebuildReadModel({ ...h.context(NOW), dropAfterMs: 0, claim: { owner: 'operator' } });
    expect(result).toMatchObject({ from: generation, to: generation + 1, messages: events.length });
    expect((await readMeta(db)).generation).toBe(generation + 1);
    expect(await readBuild(db)).toBeNull();
  }, 120_000);

  it('keeps a bootstrap from building beside another process: it steps aside and gives its bootstrap claim back', async () => {
    const fresh = await createHarness({ partitions: 2, config });
    try {
      await fresh.produce([...createHistory({ seed: 6, events: 200, now: NOW })]);
      const { db } = fresh.mongo;
      const { generation } = await ensureMeta(db);
      expect(await claimBuild(db, claimOf('npm run rebuild', generation), await databaseNow(db), 60_000)).toBe(true);
      expect(await bootstrapFromTopic(fresh.context(NOW), { minEvents: 1 })).toBe(false);
      expect((await readBuild(db))?.owner).toBe('npm run rebuild');
      expect((await readMeta(db)).generation).toBe(generation);
      expect(await claimBootstrap(db, generation)).toBe(true);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
