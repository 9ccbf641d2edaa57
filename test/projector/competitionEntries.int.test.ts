import { BSON, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import { allCollectionNames } from '../../projector/write/projectionCollections.ts';
import { projectEvents } from '../../projector/write/projectEvents.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { ensureMeta } from '../../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../../services/readModel/indexPlan.ts';
import { category } from '../api/eventBuilders.ts';
import { exampleEvent } from '../support/exampleEvents.ts';
import { createInMemoryReadModel } from '../support/inMemoryReadModel.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { eventStream, numberedUuid, uuid } from '../support/testEvents.ts';

// A competition of 150 categories and 3,000 entries, each naming every category (valid by the
// contract), once passed MongoDB's 16 MB in competition_states and stopped its partition: every
// entry lived in the state. Its entries are records of their own now, and no stored document
// comes near the limit.
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const CATEGORIES = 150;
const ENTRIES = 3_000;
const LIMIT = 16 * 1024 * 1024;
const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

function history(): { events: DomainEvent[]; id: string } {
  const s = eventStream(uuid());
  const categoryIds = Array.from({ length: CATEGORIES }, (_, i) => numberedUuid('ca000000-0000-4000-8000-', i + 1));
  const entryIds = Array.from({ length: ENTRIES }, (_, i) => numberedUuid('e0000000-0000-4000-8000-', i + 1));
  const events: DomainEvent[] = [
    s.next('competition.drafted', at(0), exampleEvent('competition.drafted').data),
    s.next('competition.published', at(1), {}),
    ...categoryIds.map((id, i) => s.next('competition.category_added', at(2 + i), { category: { ...category(i + 1), id } })),
    ...entryIds.map((entryId, i) => s.next('competition.entry_submitted', at(1_000 + i), { entryId, categoryIds })),
    // A few of them change or withdraw, and a category goes and comes back (from zero).
    ...entryIds
      .slice(0, 100)
      .map((entryId, i) => s.next('competition.entry_changed', at(5_000 + i), { entryId, categoryIds: [categoryIds[0]!] })),
    ...entryIds.slice(100, 150).map((entryId, i) => s.next('competition.entry_withdrawn', at(6_000 + i), { entryId })),
    s.next('competition.category_removed', at(7_000), { categoryId: categoryIds[1]! }),
    s.next('competition.category_added', at(7_001), { category: { ...category(2), id: categoryIds[1]! } }),
    s.next('competition.entry_changed', at(7_002), { entryId: entryIds[200]!, categoryIds: [categoryIds[1]!, categoryIds[2]!] }),
  ];
  return { events, id: s.aggregateId };
}

describe('a competition of 150 categories and 3,000 entries naming all of them', () => {
  const { mongoUrl } = testServers();
  const dbName = uniqueName('test_entries');
  let client: MongoClient;
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl);
  });
  afterAll(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  it('projects with every count right and its largest stored document far below 16 MB', async () => {
    const db = client.db(dbName);
    const { generation } = await ensureMeta(db);
    const store = new MongoProjectionStore(db, generation, { live: true });
    await ensureReadModelIndexes(db, store.names);
    const { events, id } = history();
    for (let i = 0; i < events.length; i += 500) await projectEvents(events.slice(i, i + 500), store, config, NOW);

    const model = createInMemoryReadModel(config);
    for (const event of events) model.apply(event, NOW);
    const expected = model.competitions.get(id)!;
    const stored = await db
      .collection(store.names.read.competitions)
      .findOne({ _id: id as unknown as never }, { projection: { stamp: 0 } });
    expect(stored).toEqual(expected);
    // 2,950 entries: 100 name the first category only, the 201st the second and third, 2,849 all
    // (the second, removed and added again, counts only the one naming it since).
    const starts = expected.categories.map((c) => c.startsCount);
    expect(starts.slice(0, 4)).toEqual([2_949, 1, 2_850, 2_849]);
    expect(new Set(starts.slice(3))).toEqual(new Set([2_849]));
    expect(expected.registration).toMatchObject({ entriesCount: 2_950, startsCount: 2_949 + 1 + 2_850 + 147 * 2_849 });

    let largest = { collection: '', bytes: 0 };
    for (const name of allCollectionNames(store.names)) {
      for await (const doc of db.collection(name).find({})) {
        const bytes = BSON.calculateObjectSize(doc);
        if (bytes > largest.bytes) largest = { collection: name, bytes };
      }
    }
    expect(largest.bytes).toBeLessThan(LIMIT / 16);
    process.stdout.write(
      `[competition entries] ${CATEGORIES} categories x ${ENTRIES} entries: largest stored document ${largest.bytes.toLocaleString('en')} B in ${largest.collection}\n`,
    );
  }, 300_000);
});
