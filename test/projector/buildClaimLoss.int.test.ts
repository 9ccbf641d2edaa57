import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { rebuildReadModel } from '../../projector/rebuild/rebuildReadModel.ts';
import { ensureMeta, META_COLLECTION, readBuild, readMeta } from '../../services/mongo/index.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { waitFor } from '../support/waitFor.ts';

// A builder never holds the fleet: it stops writing once its claim is taken over, and gives the
// claim back, saying why, when its replay applies nothing for the stated time.

const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'UTC', bufferPeriodDays: 30 };

describe('a builder that loses its claim or makes no progress', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ partitions: 2, config });
    await ensureMeta(h.mongo.db);
    await h.produce([...createHistory({ seed: 8, events: 3_000, now: NOW })]);
  });
  afterAll(() => h.close());

  it('stops when another process takes its claim over, and switches nothing', async () => {
    const { db } = h.mongo;
    const { generation } = await readMeta(db);
    const building = rebuildReadModel({ ...h.context(NOW), dropAfterMs: 0, claim: { owner: 'slow builder', heartbeatMs: 100 } });
    building.catch(() => undefined);
    await waitFor(async () => expect((await readBuild(db))?.owner).toBe('slow builder'), 10_000, 20);
    await db.collection<{ _id: string }>(META_COLLECTION).updateOne({ _id: 'current' }, { $set: { 'build.owner': 'another process' } });
    await expect(building).rejects.toMatchObject({ name: 'BuildClaimLost' });
    expect((await readMeta(db)).generation).toBe(generation);
    expect((await readBuild(db))?.owner).toBe('another process');
    await db.collection<{ _id: string }>(META_COLLECTION).updateOne({ _id: 'current' }, { $unset: { build: '' } });
  }, 60_000);

  it('gives its claim back, saying why, when its replay applies nothing for the stated time', async () => {
    const { db } = h.mongo;
    const { generation } = await readMeta(db);
    const stalled = rebuildReadModel({ ...h.context(NOW), dropAfterMs: 0, noProgressMs: 1, claim: { owner: 'stalled builder' } });
    await expect(stalled).rejects.toMatchObject({
      name: 'BuildStalled',
      message: expect.stringMatching(/^the replay applied nothing for 0 s.*the build claim is given back$/) as string,
    });
    expect(await readBuild(db)).toBeNull();
    expect((await readMeta(db)).generation).toBe(generation);
  }, 60_000);
});
