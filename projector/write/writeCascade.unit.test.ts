import { MongoNetworkError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { exampleEvents } from '../../test/support/exampleEvents.ts';
import { sweepDue } from '../clock/sweepDue.ts';
import { createInMemoryReadModel } from '../../test/support/inMemoryReadModel.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import { clubLocation, dancerGrant, LV, person } from '../../test/api/eventBuilders.ts';
import { eventStream, uuid } from '../../test/support/testEvents.ts';
import { MemoryProjectionStore } from '../../test/support/memoryProjectionStore.ts';
import { writeOrder, type CascadeStep, type Slot } from './cascadeSteps.ts';
import { deriveDeferred } from './deriveDeferred.ts';
import { orderViolations } from './orderViolations.ts';
import { projectEvents } from './projectEvents.ts';
import type { ProjectionStore } from './projectionStore.ts';
import { noneDeferred, replayChunk } from './replayChunk.ts';

const config: ProjectionConfig = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');

type Listing = 'competitions' | 'dancers' | 'judges' | 'coaches' | 'clubs';
const listings: Listing[] = ['competitions', 'dancers', 'judges', 'coaches', 'clubs'];

/** Stored documents without the writer's guard bookkeeping, sorted by id. */
function documents(store: MemoryProjectionStore): Record<Listing, unknown[]> {
  const out = {} as Record<Listing, unknown[]>;
  for (const listing of listings) {
    out[listing] = [...store.docs[listing].entries()]
      .filter(([, d]) => d.registryState !== 'GONE')
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, d]) => {
        const { stamp: _s, rev: _r, ...rest } = d;
        return rest;
      });
  }
  return out;
}

function reference(events: readonly DomainEvent[]): Record<Listing, unknown[]> {
  const model = createInMemoryReadModel(config);
  for (const event of events) model.apply(event, NOW);
  model.sweep(NOW);
  const out = {} as Record<Listing, unknown[]>;
  for (const listing of listings) out[listing] = [...model[listing].entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, d]) => d);
  return out;
}

async function project(events: readonly DomainEvent[], chunkSize: number): Promise<MemoryProjectionStore> {
  const store = new MemoryProjectionStore();
  for (let i = 0; i < events.length; i += chunkSize) await projectEvents(events.slice(i, i + chunkSize), store, config, NOW);
  await sweepDue(store, config, NOW);
  return store;
}

/** Events of each aggregate keep their order; aggregates interleave as partitions would. */
function interleave(events: readonly DomainEvent[], partitions: number, seed: number): DomainEvent[] {
  const queues: DomainEvent[][] = Array.from({ length: partitions }, () => []);
  for (const e of events) queues[Number.parseInt(e.aggregateId.slice(-6), 16) % partitions]!.push(e);
  const out: DomainEvent[] = [];
  let s = seed;
  while (queues.some((q) => q.length > 0)) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const open = queues.filter((q) => q.length > 0);
    const q = open[s % open.length]!;
    out.push(...q.splice(0, 1 + (s % 7)));
  }
  return out;
}

/** The store method each slot's write is made through (writeCascade's writeSlot). */
const SLOT_METHOD: Record<Slot, keyof ProjectionStore> = {
  competitionEntries: 'writeCompetitionEntries',
  personLinks: 'writePersonLinks',
  states: 'writeStates',
  ownDocuments: 'writeOwnDocs',
  sweptDocuments: 'writeOwnDocs',
  dancerFacts: 'writeDancerFacts',
  coachRevisions: 'bumpRevisions',
  clubRevisions: 'bumpRevisions',
  staffFacts: 'writeStaffFacts',
  coachDocuments: 'writeDerived',
  clubDocuments: 'writeDerived',
};
const writeCalls = [...new Set(Object.values(SLOT_METHOD))];

/**
 * The store, telling `hooks.written` of each write once it has landed, with the write's position
 * within its batch (a batch ends with its signalChanged call).
 */
function watchingWrites(
  store: MemoryProjectionStore,
  hooks: { written: (method: string, position: number) => void; batchEnded?: () => void },
): MemoryProjectionStore {
  const watching = Object.create(store) as MemoryProjectionStore;
  let position = 0;
  for (const method of writeCalls) {
    watching[method] = async (...args: never[]) => {
      const result = await (store[method] as (...a: never[]) => Promise<unknown>).apply(store, args);
      hooks.written(method, position++);
      return result as never;
    };
  }
  watching.signalChanged = (listings) => {
    position = 0;
    hooks.batchEnded?.();
    return store.signalChanged(listings);
  };
  return watching;
}

/**
 * The store, except that the process "dies" right after the writes of `step` have landed (the
 * first batch's that reaches it: a store call's position within its batch names its step, since
 * every batch makes each step's declared writes, one store call each, empty or not).
 */
function dyingAfter(store: MemoryProjectionStore, step: string): { store: MemoryProjectionStore; died: () => boolean } {
  const index = writeOrder.findIndex((s) => s.name === step);
  expect(index, step).toBeGreaterThanOrEqual(0);
  const lastCall = writeOrder.slice(0, index + 1).reduce((calls, s) => calls + s.writes.length, 0) - 1;
  let died = false;
  const dying = watchingWrites(store, {
    written: (_method, at) => {
      if (died || at !== lastCall) return;
      died = true;
      // The database's kind of error: a content error would be isolated and the batch go on.
      throw new MongoNetworkError('process died');
    },
  });
  return { store: dying, died: () => died };
}

/** The store's write calls, in order, one list per batch. */
function recordingWrites(store: MemoryProjectionStore): { store: MemoryProjectionStore; batches: string[][] } {
  const batches: string[][] = [[]];
  const recording = watchingWrites(store, {
    written: (method) => batches.at(-1)!.push(method),
    batchEnded: () => batches.push([]),
  });
  return { store: recording, batches };
}

describe('the cascade (projectEvents, sweepSubjects, replayChunk, deriveDeferred)', () => {
  it('gives the per-event reference documents for the example story', async () => {
    const store = await project(exampleEvents, 7);
    expect(documents(store)).toEqual(reference(exampleEvents));
    expect(store.docs.clubs.size).toBeGreaterThan(0);
  });

  const history = [...createHistory({ seed: 7, events: 4000, now: NOW })];

  it('gives the reference documents for a generated history, whatever the chunk size', async () => {
    const expected = reference(history);
    expect(expected.dancers.length).toBeGreaterThan(50);
    expect(expected.clubs.length).toBeGreaterThan(5);
    for (const chunk of [10, 250, 5000]) expect(documents(await project(history, chunk)), `chunk ${chunk}`).toEqual(expected);
  }, 60_000);

  it('gives the reference documents when a replay writes states only and derives everything at its end', async () => {
    const expected = reference(history);
    for (const chunk of [250, 5000]) {
      const store = new MemoryProjectionStore();
      const deferred = noneDeferred();
      const shuffled = interleave(history, 6, chunk).flatMap((e, i) => (i % 9 === 0 ? [e, e] : [e]));
      for (let i = 0; i < shuffled.length; i += chunk) await replayChunk(shuffled.slice(i, i + chunk), store, config, deferred);
      // Nothing derived yet: the replay stored the states and collected who to derive.
      const storedDocs = Object.values(store.docs).reduce((n, docs) => n + docs.size, 0);
      expect(storedDocs, `chunk ${chunk}`).toBe(0);
      expect(deferred.persons.size, `chunk ${chunk}`).toBeGreaterThanOrEqual(expected.dancers.length);
      expect(deferred.competitions.size, `chunk ${chunk}`).toBeGreaterThanOrEqual(expected.competitions.length);
      await deriveDeferred(deferred, store, config, NOW);
      await sweepDue(store, config, NOW);
      expect(documents(store), `chunk ${chunk}`).toEqual(expected);
    }
  }, 60_000);

  it('is independent of how partitions interleave, and of duplicates', async () => {
    const expected = documents(await project(history, 500));
    const shuffled = interleave(history, 6, 42);
    const withDuplicates = shuffled.flatMap((e, i) => (i % 5 === 0 ? [e, e] : [e]));
    const store = await project(withDuplicates, 333);
    expect(documents(store)).toEqual(expected);
    // Re-delivering a whole stretch after a crash changes nothing either.
    for (let i = 0; i < 600; i += 200) await projectEvents(shuffled.slice(i, i + 200), store, config, NOW);
    expect(documents(store)).toEqual(expected);
  }, 60_000);

  // A batch that dies right after one of its writes landed leaves, for example, facts stored
  // whose coaches and clubs were never derived. Replaying it must derive them although the
  // facts now look unchanged.
  for (const { name: step } of writeOrder) {
    it(`re-derives every subject when a batch that died after ${step} is replayed`, async () => {
      const expected = documents(await project(history, 400));
      const store = new MemoryProjectionStore();
      const dying = dyingAfter(store, step);
      for (let i = 0; i < history.length; i += 400) {
        const events = history.slice(i, i + 400);
        // The last batch: no later batch touches its subjects again and hides the loss.
        if (i + 400 >= history.length) await projectEvents(events, dying.store, config, NOW).catch(() => undefined);
        await projectEvents(events, store, config, NOW);
      }
      expect(dying.died()).toBe(true);
      await sweepDue(store, config, NOW);
      expect(documents(store)).toEqual(expected);
    }, 60_000);
  }

  // The clock has no log to replay: what tells it a transition is still to do is the swept
  // document's nextDueAt, so a sweep that died half-way must be found and finished by the next.
  const EARLIER = new Date(NOW.getTime() - 400 * 86_400_000);
  const past = [...createHistory({ seed: 11, events: 3000, now: EARLIER })];
  for (const { name: step } of writeOrder) {
    it(`finishes on the next sweep a clock sweep that died after ${step}`, async () => {
      const expected = documents(await project(past, 500));
      const store = new MemoryProjectionStore();
      for (let i = 0; i < past.length; i += 500) await projectEvents(past.slice(i, i + 500), store, config, EARLIER);
      const dying = dyingAfter(store, step);
      const first = await sweepDue(dying.store, config, NOW).catch(() => null);
      expect(first, 'the first sweep died').toBeNull();
      expect(dying.died()).toBe(true);
      const second = await sweepDue(store, config, NOW);
      // Swept documents are the last write: died after it, the sweep had nothing left to do.
      if (step === writeOrder.at(-1)!.name) expect(second.persons).toBe(0);
      else expect(second.persons).toBeGreaterThan(0);
      expect(documents(store)).toEqual(expected);
    }, 60_000);
  }

  // A coach's own transition can change its staff facts: an exception that held a coach without
  // dancers listed ends, and its club's coachesCount drops. The club has nothing due itself, so
  // only the coach's nextDueAt, written after the club, brings a died sweep back to it.
  for (const { name: step } of writeOrder) {
    it(`finishes on the next sweep a coach's transition whose sweep died after ${step}`, async () => {
      const club = eventStream(uuid());
      const dancer = eventStream(uuid());
      const coach = eventStream(uuid());
      const events: DomainEvent[] = [
        club.next('club.registered', '2024-01-01T09:00:00Z', {
          name: 'DSC Aurora',
          logo: null,
          foundedOn: null,
          approvedAt: null,
          contacts: { phone: null, email: null, website: null, instagram: null, facebook: null },
          locations: [clubLocation(1, 'main', 'Rīga', LV)],
        }),
        dancer.next('person.registered', '2024-01-02T09:00:00Z', person('Anna', 'Ozola', LV)),
        dancer.next('person.role_granted', '2024-01-02T10:00:00Z', dancerGrant('2024-01-02T10:00:00Z', '2030-01-01')),
        dancer.next('person.club_joined', '2024-01-03T10:00:00Z', { role: 'dancer', clubId: club.aggregateId, since: '2024-01-03' }),
        coach.next('person.registered', '2024-01-04T09:00:00Z', person('Jānis', 'Ozols', LV, 'MALE')),
        coach.next('person.role_granted', '2024-01-04T10:00:00Z', {
          role: 'coach',
          approvedAt: '2024-01-04T10:00:00Z',
          registryUntil: null,
          highestClass: 8,
        }),
        coach.next('person.club_joined', '2024-01-05T10:00:00Z', { role: 'coach', clubId: club.aggregateId, since: '2024-01-05' }),
        coach.next('person.exception_placed', '2024-01-06T10:00:00Z', {
          role: 'coach',
          registryState: 'REGISTRY',
          until: '2024-03-01T00:00:00Z',
        }),
      ];
      const before = new Date('2024-02-01T00:00:00Z');
      const after = new Date('2024-03-10T00:00:00Z');
      const coachesCount = (s: MemoryProjectionStore): unknown => s.docs.clubs.get(club.aggregateId)?.coachesCount;

      const reference = new MemoryProjectionStore();
      await projectEvents(events, reference, config, after);
      await sweepDue(reference, config, after);
      const store = new MemoryProjectionStore();
      await projectEvents(events, store, config, before);
      expect(coachesCount(store), 'listed by the exception').toBe(1);
      expect(coachesCount(reference), 'not once it ended').toBe(0);

      const dying = dyingAfter(store, step);
      await expect(sweepDue(dying.store, config, after)).rejects.toThrow('process died');
      await sweepDue(store, config, after);
      expect(coachesCount(store)).toBe(0);
      expect(documents(store)).toEqual(documents(reference));
    });
  }

  it('writes each document at most once per batch', async () => {
    const store = new MemoryProjectionStore();
    const { written } = await projectEvents(history.slice(0, 2000), store, config, NOW);
    const touched = new Set(history.slice(0, 2000).map((e) => e.aggregateId)).size;
    // One state write per touched aggregate; documents per listing never exceed their ids.
    const stateWrites =
      (store.writes.get('competition_states') ?? 0) + (store.writes.get('person_states') ?? 0) + (store.writes.get('club_states') ?? 0);
    expect(stateWrites).toBe(touched);
    for (const listing of listings) expect(store.writes.get(listing) ?? 0).toBe(written[listing]);
    expect(store.writes.get('competitions')).toBeLessThanOrEqual(store.docs.competitions.size + 1);
    expect(store.rewritesInBatch).toBe(0);
    // The counter the benchmark reports does count a second write within one batch.
    await store.writeDerived('clubs', [{ id: 'c', value: null, rev: 1 }]);
    await store.writeDerived('clubs', [{ id: 'c', value: null, rev: 2 }]);
    expect(store.rewritesInBatch).toBe(1);
  });

  it('makes every write of an event batch and of a clock sweep in the declared order', async () => {
    // A step's writes are made together, so they may land in any order among themselves.
    const bySteps = (calls: string[]): string[][] => {
      let at = 0;
      return writeOrder.map((step) => calls.slice(at, (at += step.writes.length)).sort());
    };
    const declared = writeOrder.map((step) => step.writes.map((slot) => SLOT_METHOD[slot]).sort());
    const { store, batches } = recordingWrites(new MemoryProjectionStore());
    for (let i = 0; i < past.length; i += 1000) await projectEvents(past.slice(i, i + 1000), store, config, EARLIER);
    const events = batches.length - 1;
    expect((await sweepDue(store, config, NOW)).persons).toBeGreaterThan(0);
    const sweeps = batches.length - 1 - events;
    expect(sweeps).toBeGreaterThan(0);
    expect(batches.pop()).toEqual([]);
    for (const batch of batches) expect(bySteps(batch)).toEqual(declared);
  });

  it('declares an order that every rule and every load holds', () => {
    expect(orderViolations(writeOrder)).toEqual([]);
  });

  // The checker must be able to fail: each reordering below breaks one thing the order protects.
  const moved = (name: string, to: number): CascadeStep[] => {
    const steps = writeOrder.filter((s) => s.name !== name);
    steps.splice(
      to,
      0,
      writeOrder.find((s) => s.name === name)!,
    );
    return steps;
  };
  it.each([
    ['dancerFacts', 0, 'dancerFacts is written before states'],
    ['sweptDocuments', 2, 'sweptDocuments is written before *'],
    ['clubDocuments', 3, 'clubDocuments loads staffFacts before staffFacts writes it'],
    ['coachDocuments', 2, 'coachDocuments reads coachDocs before any step hands it on'],
    ['coachDocuments', 4, 'coachDocuments is written before clubDocuments'],
    ['subjectRevisions', 7, 'staffFacts is written before coachRevisions'],
    ['subjectRevisions', 1, 'coachRevisions is written before dancerFacts'],
    ['staffRevisions', 3, 'clubRevisions is written before staffFacts'],
  ])('finds the order broken when %s moves to %i', (name, to, problem) => {
    expect(orderViolations(moved(name, to)).join('\n')).toContain(problem);
  });

  it('signals which listings changed', async () => {
    const store = new MemoryProjectionStore();
    await projectEvents(
      exampleEvents.filter((e) => e.type.startsWith('competition.')),
      store,
      config,
      NOW,
    );
    expect(store.changed).toEqual([['competitions']]);
  });
});
