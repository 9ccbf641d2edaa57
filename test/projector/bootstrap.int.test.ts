import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { bootstrapFromTopic } from '../../projector/bootstrap/bootstrapFromTopic.ts';
import type { ProjectorContext } from '../../projector/projectorContext.ts';
import { collectionName, readMeta } from '../../services/mongo/index.ts';
import { readCollectionIndexes } from '../../services/readModel/indexPlan.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { readModelSnapshot, referenceSnapshot } from '../support/readModelSnapshot.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const history = [...createHistory({ seed: 5, events: 1500, now: NOW })];

describe('bootstrap of an empty read model before a long event log', () => {
  let h: Harness;
  let context: ProjectorContext;

  beforeAll(async () => {
    h = await createHarness({ partitions: 3, config });
    await h.produce(history);
    context = h.context(NOW, { chunkSize: 500 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('leaves a topic shorter than the threshold to the live consumer', async () => {
    expect(await bootstrapFromTopic(context, { minEvents: history.length + 1 })).toBe(false);
    expect((await readMeta(h.mongo.db)).generation).toBe(1);
  });

  it('fills the next generation as a rebuild does, with every index, reports progress, and runs once', async () => {
    const lines: string[] = [];
    expect(await bootstrapFromTopic(context, { minEvents: 1000, report: (line) => lines.push(line), everyMs: 0 })).toBe(true);
    expect((await readMeta(h.mongo.db)).generation).toBe(2);
    expect(await readModelSnapshot(h.mongo.db, 2)).toEqual(referenceSnapshot(history, config, NOW));
    const names = (await h.mongo.db.collection(collectionName('dancers', 2)).listIndexes().toArray()).map((i) => String(i.name));
    expect(names).toEqual(expect.arrayContaining(readCollectionIndexes('dancers').map((i) => String(i.name))));
    expect(lines[0]).toMatch(
      new RegExp(`^projecting the event log into an empty read model: 0 of ${history.length.toLocaleString('en')} events`),
    );
    // After the replay, each step until the switch is said, not waited through in silence.
    const after = lines.slice(lines.findIndex((line) => line.includes('every event replayed')));
    expect(after.map((line) => line.replace(/^.*read model: | \(\d+ s so far\)$/g, ''))).toEqual(
      expect.arrayContaining([
        'every event replayed; deriving the competitions',
        'dancers and judges derived, indexes building; deriving the coaches',
        'clubs derived, indexes building',
        'indexes built; applying the clock, then switching',
      ]),
    );
    expect(lines.at(-1)).toContain(`${history.length.toLocaleString('en')} of ${history.length.toLocaleString('en')} events (100 %)`);
    // The read model is no longer empty (and the claim is taken): a second start projects live.
    expect(await bootstrapFromTopic(context, { minEvents: 1000 })).toBe(false);
    expect((await readMeta(h.mongo.db)).generation).toBe(2);
  });
});
