import { MongoNetworkError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../services/events/index.ts';
import { category } from '../../test/api/eventBuilders.ts';
import { exampleEvent } from '../../test/support/exampleEvents.ts';
import { createInMemoryReadModel } from '../../test/support/inMemoryReadModel.ts';
import { MemoryProjectionStore } from '../../test/support/memoryProjectionStore.ts';
import { eventStream, numberedUuid, uuid, type EventStream } from '../../test/support/testEvents.ts';
import { sweepDue } from '../clock/sweepDue.ts';
import { initialCompetitionState, type ProjectionConfig } from '../evolve/index.ts';
import { writeOrder } from './cascadeSteps.ts';
import { resolveEntries, StaleEntryRecord, type CompetitionEntryRecord } from './competitionEntryRecords.ts';
import { projectEvents } from './projectEvents.ts';

const config: ProjectionConfig = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

/** A published competition with `categories` categories. */
function competition(categories: number): { s: EventStream; events: DomainEvent[]; categoryIds: string[] } {
  const s = eventStream(uuid());
  const added = Array.from({ length: categories }, (_, i) => ({ ...category(i + 1), id: numberedUuid('ca000000-0000-4000-8000-', i + 1) }));
  const events: DomainEvent[] = [
    s.next('competition.drafted', at(0), exampleEvent('competition.drafted').data),
    s.next('competition.published', at(1), {}),
    ...added.map((c, i) => s.next('competition.category_added', at(2 + i), { category: c })),
  ];
  return { s, events, categoryIds: added.map((c) => c.id) };
}

/** Entry events: submissions, then changes, withdrawals and category removals and re-additions mixed in. */
function entryStory(s: EventStream, categoryIds: string[], entries: number, seed: number, from: number): DomainEvent[] {
  let r = seed;
  const pick = (n: number): number => (r = (r * 1103515245 + 12345) % 2 ** 31) % n;
  const ids = Array.from({ length: entries }, (_, i) => numberedUuid(`e${seed.toString(16).padStart(7, '0')}-0000-4000-8000-`, i + 1));
  const named = (): string[] => [...new Set([0, 1, 2].map(() => categoryIds[pick(categoryIds.length)]!))];
  const events: DomainEvent[] = ids.map((entryId, i) =>
    s.next('competition.entry_submitted', at(from + i), { entryId, categoryIds: named() }),
  );
  for (let i = 0; i < entries; i++) {
    const roll = pick(20);
    const entryId = ids[pick(ids.length)]!;
    const t = at(from + entries + i);
    if (roll < 10) events.push(s.next('competition.entry_changed', t, { entryId, categoryIds: named() }));
    else if (roll < 16) events.push(s.next('competition.entry_withdrawn', t, { entryId }));
    else if (roll < 18) events.push(s.next('competition.category_removed', t, { categoryId: categoryIds[pick(categoryIds.length)]! }));
    else {
      const id = categoryIds[pick(categoryIds.length)]!;
      events.push(s.next('competition.category_added', t, { category: { ...category(pick(9) + 1), id } }));
    }
  }
  return events;
}

function reference(events: readonly DomainEvent[]) {
  const model = createInMemoryReadModel(config);
  for (const event of events) model.apply(event, NOW);
  return { docs: [...model.competitions.values()], entries: model.competitionEntries };
}

/** What the store holds: the documents (without stamps) and each entry at the stored state's version. */
function stored(store: MemoryProjectionStore) {
  const docs = [...store.docs.competitions.values()].map(({ stamp: _stamp, ...doc }) => doc);
  const entries = new Map<string, unknown>();
  for (const record of store.entries.values()) {
    const version = store.states.competition.get(record.competitionId)?.version ?? 0;
    const categories = record.v <= version ? record.categories : record.prev;
    if (categories !== null) entries.set(record._id, { categories });
  }
  return { docs, entries };
}

describe('competition entries as records of their own', () => {
  const { s, events: opening, categoryIds } = competition(8);
  const history = [...opening, ...entryStory(s, categoryIds, 300, 7, 100)];
  const expected = reference(history);

  it('give the reference documents and entries whatever the batch size', async () => {
    expect(expected.docs[0]!.registration.entriesCount).toBeGreaterThan(100);
    for (const size of [1, 37, 250, 5000]) {
      const store = new MemoryProjectionStore();
      for (let i = 0; i < history.length; i += size) await projectEvents(history.slice(i, i + size), store, config, NOW);
      await sweepDue(store, config, NOW);
      expect(stored(store), `batch ${size}`).toEqual(expected);
    }
  }, 60_000);

  // A batch that died after any of its writes is replayed by the consumer, whose next batches
  // need not end where the died one did: the replay must find the same deltas.
  for (const { name: step } of writeOrder) {
    it(`count the same when a batch that died after ${step} is replayed in other batches`, async () => {
      const store = new MemoryProjectionStore();
      for (let i = 0; i < 300; i += 100) await projectEvents(history.slice(i, i + 100), store, config, NOW);
      let died = false;
      const dying = Object.create(store) as MemoryProjectionStore;
      const index = writeOrder.findIndex((st) => st.name === step);
      const methods = [
        'writeCompetitionEntries',
        'writePersonLinks',
        'writeStates',
        'writeOwnDocs',
        'writeDancerFacts',
        'bumpRevisions',
        'writeStaffFacts',
        'writeDerived',
      ] as const;
      let calls = 0;
      const lastCall = writeOrder.slice(0, index + 1).reduce((n, st) => n + st.writes.length, 0);
      for (const method of methods) {
        dying[method] = (async (...args: never[]) => {
          const result = await (store[method] as (...a: never[]) => Promise<unknown>).apply(store, args);
          calls += 1;
          if (calls >= lastCall && !died) {
            died = true;
            throw new MongoNetworkError('process died');
          }
          return result;
        }) as never;
      }
      await projectEvents(history.slice(300, 500), dying, config, NOW).catch(() => undefined);
      expect(died).toBe(true);
      for (let i = 300; i < history.length; i += 70) await projectEvents(history.slice(i, i + 70), store, config, NOW);
      await sweepDue(store, config, NOW);
      expect(stored(store)).toEqual(expected);
    }, 30_000);
  }

  it('refuse a batch whose state is older than the batch that wrote an entry (a stale consumer)', () => {
    const state = { ...initialCompetitionState('c'), version: 10 };
    const record: CompetitionEntryRecord = { _id: 'c|e', competitionId: 'c', entryId: 'e', v: 20, categories: [], pv: 12, prev: null };
    expect(() => resolveEntries(new Map([['c', state]]), [record], ['c|e'])).toThrow(StaleEntryRecord);
    expect(
      resolveEntries(new Map([['c', { ...state, version: 12 }]]), [record], ['c|e'])
        .get('c')!
        .entries.get('e'),
    ).toBeNull();
    expect(
      resolveEntries(new Map([['c', { ...state, version: 20 }]]), [record], ['c|e'])
        .get('c')!
        .entries.get('e'),
    ).toEqual({
      categories: [],
    });
  });
});
