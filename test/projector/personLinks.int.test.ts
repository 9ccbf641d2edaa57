import { MongoClient, MongoNetworkError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import { projectEvents } from '../../projector/write/projectEvents.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { ensureMeta } from '../../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../../services/readModel/indexPlan.ts';
import { clubLocation, dancerGrant, LV, person } from '../api/eventBuilders.ts';
import { createInMemoryReadModel } from '../support/inMemoryReadModel.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { eventStream, uuid } from '../support/testEvents.ts';

// A person's links are records of their own (person_links) on the database too: a dancer who
// joined and left clubs and coaches hundreds of times, with an exception dated before some of
// those leaves, gets the pure fold's documents and link facts, also when a batch died after
// writing its link records, or its state, and was replayed in other batches.
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const DAY = 86_400_000;
const at = (day: number): string => new Date(Date.UTC(2025, 0, 1) + day * DAY).toISOString();

function history(): { events: DomainEvent[]; dancer: string; clubs: string[]; coaches: string[] } {
  const clubs = [eventStream(uuid()), eventStream(uuid())];
  const coaches = [eventStream(uuid()), eventStream(uuid())];
  const dancer = eventStream(uuid());
  const events: DomainEvent[] = [];
  for (const club of clubs) {
    events.push(
      club.next('club.registered', at(0), {
        name: 'Club',
        logo: null,
        foundedOn: null,
        approvedAt: null,
        contacts: { phone: null, email: null, website: null, instagram: null, facebook: null },
        locations: [clubLocation(1, 'main', 'Rīga', LV)],
      }),
    );
  }
  for (const coach of coaches) {
    events.push(coach.next('person.registered', at(0), person('Jānis', 'Ozols', LV, 'MALE')));
    events.push(coach.next('person.role_granted', at(0), { role: 'coach', approvedAt: at(0), registryUntil: null, highestClass: 8 }));
  }
  events.push(dancer.next('person.registered', at(0), person('Anna', 'Ozola', LV)));
  events.push(dancer.next('person.role_granted', at(0), dancerGrant(at(0), '2030-01-01')));
  for (let i = 0; i < 150; i++) {
    const clubId = clubs[i % 2]!.aggregateId;
    const coachId = coaches[i % 2]!.aggregateId;
    events.push(dancer.next('person.club_joined', at(1 + i * 2), { role: 'dancer', clubId, since: at(1 + i * 2).slice(0, 10) }));
    events.push(dancer.next('person.coach_assigned', at(1 + i * 2), { coachId, since: at(1 + i * 2).slice(0, 10) }));
    events.push(dancer.next('person.club_left', at(2 + i * 2), { role: 'dancer', clubId }));
    events.push(dancer.next('person.coach_unassigned', at(2 + i * 2), { coachId }));
    // Now and then an exception dated days before the leaves just projected.
    if (i % 40 === 39)
      events.push(
        dancer.next('person.exception_placed', at(i * 2 - 7), { role: 'dancer', registryState: 'ARCHIVE', until: at(i * 2 - 3) }),
      );
  }
  events.push(dancer.next('person.club_joined', at(400), { role: 'dancer', clubId: clubs[0]!.aggregateId, since: '2026-02-05' }));
  return {
    events,
    dancer: dancer.aggregateId,
    clubs: clubs.map((c) => c.aggregateId),
    coaches: coaches.map((c) => c.aggregateId),
  };
}

describe("a dancer's links as records of their own, on the database", () => {
  const { mongoUrl } = testServers();
  let client: MongoClient;
  const dbNames: string[] = [];
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl);
  });
  afterAll(async () => {
    for (const name of dbNames) await client.db(name).dropDatabase();
    await client.close();
  });

  async function freshStore(): Promise<MongoProjectionStore> {
    const name = uniqueName('test_links');
    dbNames.push(name);
    const db = client.db(name);
    const { generation } = await ensureMeta(db);
    const store = new MongoProjectionStore(db, generation, { live: true });
    await ensureReadModelIndexes(db, store.names);
    return store;
  }

  const { events, dancer, clubs, coaches } = history();
  const model = createInMemoryReadModel(config);
  for (const event of events) model.apply(event, NOW);
  model.sweep(NOW);

  async function expectReference(store: MongoProjectionStore): Promise<void> {
    const db = client.db(dbNames.at(-1));
    const read = async (collection: string, id: string): Promise<unknown> =>
      db.collection(collection).findOne({ _id: id as unknown as never }, { projection: { stamp: 0, rev: 0 } });
    expect(await read(store.names.read.dancers, dancer)).toEqual(model.dancers.get(dancer));
    for (const id of clubs) expect(await read(store.names.read.clubs, id)).toEqual(model.clubs.get(id));
    for (const id of coaches) expect(await read(store.names.read.coaches, id)).toEqual(model.coaches.get(id));
    const facts = await db
      .collection(store.names.memberLinks)
      .find({}, { projection: { stamp: 0, rev: 0 } })
      .sort({ _id: 1 })
      .toArray();
    expect(facts).toEqual([...model.memberLinks.values()].sort((a, b) => (a._id < b._id ? -1 : 1)));
    const state = await db.collection(store.names.states.person).findOne({ _id: dancer as unknown as never });
    expect(state?.links).toEqual([]);
    expect(await db.collection(store.names.personLinks).countDocuments({ personId: dancer })).toBe(4);
  }

  it('projects the pure fold’s documents and facts', async () => {
    const store = await freshStore();
    for (let i = 0; i < events.length; i += 37) await projectEvents(events.slice(i, i + 37), store, config, NOW);
    await expectReference(store);
  }, 120_000);

  for (const dieAfter of ['writePersonLinks', 'writeStates'] as const) {
    it(`projects them when a batch died after ${dieAfter} and was replayed in other batches`, async () => {
      const store = await freshStore();
      for (let i = 0; i < 300; i += 37) await projectEvents(events.slice(i, i + 37), store, config, NOW);
      const dying = Object.create(store) as MongoProjectionStore;
      const write: (...a: never[]) => Promise<void> = store[dieAfter].bind(store);
      dying[dieAfter] = async (...args: never[]) => {
        await write(...args);
        throw new MongoNetworkError('process died');
      };
      await expect(projectEvents(events.slice(296, 400), dying, config, NOW)).rejects.toThrow('process died');
      for (let i = 296; i < events.length; i += 23) await projectEvents(events.slice(i, i + 23), store, config, NOW);
      await expectReference(store);
    }, 120_000);
  }
});
