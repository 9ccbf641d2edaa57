import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { liveGroupId } from '../../projector/consume/liveGroupId.ts';
import { committedTotal } from '../faults/support/groupState.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { faultProjectorOptions } from '../faults/support/faultProjectorOptions.ts';
import type { FaultProjectorOptions } from '../faults/support/faultProjectorProcess.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { readModelSnapshot, referenceSnapshot } from '../support/readModelSnapshot.ts';
import { testServers } from '../support/isolation.ts';
import { expectFeedMatchesListings } from '../support/feedMatchesListings.ts';
import { waitFor } from '../support/waitFor.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const entry = fileURLToPath(new URL('../faults/support/faultProjectorProcess.ts', import.meta.url));

function startProcess(options: FaultProjectorOptions): NodeProcess {
  const run = spawnNode(entry, [JSON.stringify(options)]);
  // The last run is only waited on (no afterLines to carry its output), so a crash prints it.
  void run.exited.then((how) => {
    if (typeof how === 'number' && how !== 0) process.stderr.write(`projector process exited ${how}: ${run.output()}\n`);
  });
  return run;
}

describe('a projector process killed with SIGKILL mid-batch', () => {
  let h: Harness;
  const history = [...createHistory({ seed: 23, events: 1200, now: NOW })];
  const expected = referenceSnapshot(history, config, NOW);
  let options: FaultProjectorOptions;

  beforeAll(async () => {
    h = await createHarness({ partitions: 4, config });
    // Every seventh event is delivered twice, so replays meet duplicates too.
    await h.produce(history.flatMap((e, i) => (i % 7 === 0 ? [e, e] : [e])));
    options = faultProjectorOptions(testServers(), h, { now: NOW, config, chunkSize: 40, logLevel: 'silent' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('loses nothing and counts nothing twice after two kills and a restart', async () => {
    const admin = h.kafka.admin();
    await admin.connect();
    const committed = (): Promise<number> => committedTotal(admin, liveGroupId(h.groupId, 1), h.topic);
    try {
      // Killed after its 3rd and then its 40th completed bulk write: other writes of the batch are
      // still in flight and its offsets are not committed.
      for (const writes of [3, 40]) {
        const run = startProcess(options);
        await run.afterLines('wrote ', writes);
        run.child.kill('SIGKILL');
        expect(await run.exited).toBe('SIGKILL');
        expect(await committed()).toBeLessThan(history.length);
      }
      expect(await readModelSnapshot(h.mongo.db, 1)).not.toEqual(expected);

      const last = startProcess(options);
      try {
        await waitFor(async () => expect(await readModelSnapshot(h.mongo.db, 1)).toEqual(expected), 240_000, 2000);
        // The change feed announces what the killed batches wrote (their intents, through the clock) exactly once.
        await waitFor(async () => expect((await expectFeedMatchesListings(h.mongo.db, 1)).resources).toBeGreaterThan(0), 120_000, 2000);
      } finally {
        last.child.kill('SIGTERM');
        await last.exited;
      }
      expect(await committed()).toBe(history.length + Math.ceil(history.length / 7));
    } finally {
      await admin.disconnect();
    }
    // The comparison covers the counts: clubs with members and competitions with entries exist.
    expect(expected.clubs.some((c) => (c.dancersCount as number) > 0)).toBe(true);
    expect(expected.competitions.some((c) => (c.registration as { entriesCount: number }).entriesCount > 0)).toBe(true);
  }, 360_000);
});
