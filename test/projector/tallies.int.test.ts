import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { sweepDue } from '../../projector/clock/sweepDue.ts';
import { DEFAULT_SESSION_TIMEOUT_MS } from '../../projector/consume/consumerDefaults.ts';
import { countTallies } from '../../projector/rebuild/countTallies.ts';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import { projectEvents } from '../../projector/write/projectEvents.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { ensureMeta, readMeta } from '../../services/mongo/index.ts';
import { FACET_FIELDS, facetsOf, tallyRange, type FacetFields } from '../../services/readModel/facets.ts';
import { ensureReadModelIndexes, type ReadListing } from '../../services/readModel/indexPlan.ts';
import { testServers, uniqueName } from '../support/isolation.ts';

// The tallies are counts the projector keeps beside the documents instead of the API counting
// them; they must equal a count of the documents whatever happened on the way: partitions
// written at once by separate writers (sharing coaches, clubs and tally documents), batches
// delivered again after a crash, and clock sweeps changing registry states beside the events.
const NOW = new Date('2026-11-23T12:00:00Z');
const CONFIG = { zone: 'UTC', bufferPeriodDays: 30 };
const LISTINGS: readonly ReadListing[] = ['competitions', 'dancers', 'coaches', 'judges', 'clubs'];
const DAY = 86_400_000;

/** Each tally key's count as `facet key` → n: from the tally documents (slots summed, zeros left out) or counted afresh. */
async function talliesOf(db: Db, listing: ReadListing): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const { f, k, n } of await db
    .collection<{ _id: string; f: string; k: unknown; n: number }>('tallies_g1')
    .find({ _id: tallyRange(listing) })
    .toArray()) {
    const key = `${f} ${JSON.stringify(k)}`;
    sums.set(key, (sums.get(key) ?? 0) + n);
  }
  for (const [key, n] of sums) if (n === 0) sums.delete(key);
  return sums;
}

async function countedAfresh(db: Db, listing: ReadListing): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const projection = Object.fromEntries(FACET_FIELDS[listing].map((field) => [field, 1]));
  for (const doc of await db.collection(`${listing}_g1`).find({}, { projection }).toArray()) {
    for (const [facet, key] of facetsOf(listing, doc as FacetFields)) {
      const id = `${facet} ${JSON.stringify(key)}`;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}

async function expectTalliesCountTheDocuments(db: Db): Promise<void> {
  for (const listing of LISTINGS) {
    const counted = await countedAfresh(db, listing);
    expect(counted.size, `${listing} has documents to count`).toBeGreaterThan(0);
    expect(Object.fromEntries(await talliesOf(db, listing)), listing).toEqual(Object.fromEntries(counted));
  }
}

/** A deterministic stream of numbers in [0, 1) (the history's seed picks the same runs every time). */
function numbers(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Writes one partition's events in batches of 1-40, as a consumer does; now and then it "crashes"
 * and its successor starts again up to three batches back (the offsets it had not committed).
 */
async function consumePartition(events: readonly DomainEvent[], db: Db, random: () => number): Promise<void> {
  const batches: DomainEvent[][] = [];
  for (let i = 0; i < events.length;) {
    const size = 1 + Math.floor(random() * 40);
    batches.push(events.slice(i, i + size));
    i += size;
  }
  let store = new MongoProjectionStore(db, 1, { liveTransactionsWithinMs: DEFAULT_SESSION_TIMEOUT_MS });
  for (let next = 0; next < batches.length;) {
    await projectEvents(batches[next]!, store, CONFIG, NOW);
    next++;
    if (random() < 0.12) {
      next = Math.max(0, next - 1 - Math.floor(random() * 3));
      store = new MongoProjectionStore(db, 1, { liveTransactionsWithinMs: DEFAULT_SESSION_TIMEOUT_MS });
    }
  }
}

describe('tallies kept by the projector', () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    client = await MongoClient.connect(testServers().mongoUrl);
    db = client.db(uniqueName('tallies'));
    expect((await ensureMeta(db)).talliesOf, 'an empty model starts with its tallies holding').toBe(1);
    await ensureReadModelIndexes(db, new MongoProjectionStore(db, 1).names);
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  it('equal a count of the documents after partitions written at once, redeliveries and clock sweeps', async () => {
    const history = [...createHistory({ seed: 29, events: 2500, now: NOW })];
    const partitions: DomainEvent[][] = [[], [], []];
    for (const event of history) partitions[Number.parseInt(event.aggregateId.slice(0, 8), 16) % 3]!.push(event);
    const random = numbers(29);
    const sweeper = new MongoProjectionStore(db, 1, { liveTransactionsWithinMs: DEFAULT_SESSION_TIMEOUT_MS });
    let consuming = true;
    const sweeps = (async () => {
      while (consuming) await sweepDue(sweeper, CONFIG, NOW);
    })();
    await Promise.all(partitions.map((events) => consumePartition(events, db, random)));
    consuming = false;
    await sweeps;
    await expectTalliesCountTheDocuments(db);

    // A year on, the clock archives, expires and empties the buffer: registry states move.
    const before = await talliesOf(db, 'dancers');
    await sweepDue(sweeper, CONFIG, new Date(NOW.getTime() + 400 * DAY));
    expect(await talliesOf(db, 'dancers')).not.toEqual(before);
    await expectTalliesCountTheDocuments(db);
    expect((await readMeta(db)).talliesOf).toBe(1);
  });

  it('are counted the same by a rebuild', async () => {
    const kept = await Promise.all(LISTINGS.map((listing) => talliesOf(db, listing)));
    await countTallies(db, new MongoProjectionStore(db, 1).names);
    expect(await Promise.all(LISTINGS.map((listing) => talliesOf(db, listing)))).toEqual(kept);
  });

  it('are given up, before the write lands, by a writer that cannot keep them in a transaction', async () => {
    const plain = new MongoProjectionStore(db, 1);
    const events = [...createHistory({ seed: 30, events: 200, now: NOW })];
    await projectEvents(events.slice(0, 50), plain, CONFIG, NOW);
    expect((await readMeta(db)).talliesOf).toBeNull();
  });
});
