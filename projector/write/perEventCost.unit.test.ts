import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../services/events/index.ts';
import { category } from '../../test/api/eventBuilders.ts';
import { exampleEvent } from '../../test/support/exampleEvents.ts';
import { MemoryProjectionStore } from '../../test/support/memoryProjectionStore.ts';
import { eventStream, numberedUuid, uuid, type EventStream } from '../../test/support/testEvents.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import { projectEvents } from './projectEvents.ts';

// The cost of an event is the event's, not its aggregate's: an entry into a competition of
// 100,000 entries, or of 1,000 categories, loads and writes about what one into a competition of
// ten does. Counted through the memory store (documents loaded, bytes written), never timed.

const config: ProjectionConfig = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const BATCH = 100;
const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

interface Competition {
  s: EventStream;
  categoryIds: string[];
  entryIds: string[];
}

function opening(categories: number): { competition: Competition; events: DomainEvent[] } {
  const s = eventStream(uuid());
  const categoryIds = Array.from({ length: categories }, (_, i) => numberedUuid('ca000000-0000-4000-8000-', i + 1));
  const events: DomainEvent[] = [
    s.next('competition.drafted', at(0), exampleEvent('competition.drafted').data),
    s.next('competition.published', at(1), {}),
    ...categoryIds.map((id, i) => s.next('competition.category_added', at(2 + i), { category: { ...category(i + 1), id } })),
  ];
  return { competition: { s, categoryIds, entryIds: [] }, events };
}

/** `n` submissions (each naming `naming` categories). */
function entries(c: Competition, n: number, from: number, naming = 3): DomainEvent[] {
  const named = (i: number): string[] => [
    ...new Set([0, 1, 2].slice(0, naming).map((k) => c.categoryIds[(i * 7 + k * 331) % c.categoryIds.length]!)),
  ];
  const events: DomainEvent[] = [];
  for (let i = 0; i < n; i++) {
    const entryId = numberedUuid('e0000000-0000-4000-8000-', c.entryIds.length + 1);
    c.entryIds.push(entryId);
    events.push(c.s.next('competition.entry_submitted', at(from + i), { entryId, categoryIds: named(c.entryIds.length) }));
  }
  return events;
}

function changes(c: Competition, n: number, from: number): DomainEvent[] {
  return Array.from({ length: n }, (_, i) => {
    const entryId = c.entryIds[(i * 7919) % c.entryIds.length]!;
    return i % 3 === 2
      ? c.s.next('competition.entry_withdrawn', at(from + i), { entryId })
      : c.s.next('competition.entry_changed', at(from + i), { entryId, categoryIds: [c.categoryIds[(i * 13) % c.categoryIds.length]!] });
  });
}

async function project(store: MemoryProjectionStore, events: readonly DomainEvent[], batch = BATCH): Promise<void> {
  for (let i = 0; i < events.length; i += batch) await projectEvents(events.slice(i, i + batch), store, config, NOW);
}

interface Cost {
  bytes: number;
  /** Entry and category records loaded and written per event. */
  loads: number;
  writes: number;
  categoryLoads: number;
  categoryWrites: number;
  entriesCount: number;
  startsCount: number;
}

/**
 * Per event of `measured` (submissions naming `naming` categories, then as many changes and
 * withdrawals), in a competition of `size` entries and `categories` categories.
 */
async function perEvent(size: number, categories = 1_000, naming = 3): Promise<Cost> {
  const { competition, events } = opening(categories);
  const store = new MemoryProjectionStore({ countBytes: true });
  await project(store, [...events, ...entries(competition, size, 10_000)], 5_000);
  // Only the measured events count: the store then holds what a database would.
  for (const counter of [store.bytes, store.loads, store.writes]) counter.clear();
  const measured = [...entries(competition, 500, 200_000, naming), ...changes(competition, 500, 300_000)];
  await project(store, measured);
  const bytes = [...store.bytes.values()].reduce((a, b) => a + b, 0);
  const doc = store.docs.competitions.get(competition.s.aggregateId) as { registration: { entriesCount: number; startsCount: number } };
  const per = (counter: Map<string, number>, collection: string): number => (counter.get(collection) ?? 0) / measured.length;
  return {
    bytes: bytes / measured.length,
    loads: per(store.loads, 'competition_entries'),
    writes: per(store.writes, 'competition_entries'),
    categoryLoads: per(store.loads, 'competition_category_starts'),
    categoryWrites: per(store.writes, 'competition_category_starts'),
    entriesCount: doc.registration.entriesCount,
    startsCount: doc.registration.startsCount,
  };
}

describe('the cost of an entry event', () => {
  it('is within 2x for a competition of 100,000 entries and 1,000 categories of what it is for one of ten', async () => {
    const small = await perEvent(10);
    const large = await perEvent(100_000);
    expect(small.entriesCount).toBe(10 + 500 - 166);
    expect(large.entriesCount).toBe(100_000 + 500 - 166);
    // Each event loads and writes at most the one entry it names.
    for (const cost of [small, large]) {
      expect(cost.loads).toBeLessThanOrEqual(1);
      expect(cost.writes).toBeLessThanOrEqual(1);
    }
    expect(large.bytes / small.bytes).toBeLessThan(2);
    process.stdout.write(
      `[per-event cost] bytes written per entry event: ${small.bytes.toFixed(0)} (10 entries), ${large.bytes.toFixed(0)} (100,000)\n`,
    );
  }, 120_000);

  // Each entry names one category, as in bench:per-event: a batch into ten categories writes each
  // counter once for many events, one into 1,000 writes one per event, so the more ids an entry
  // names, the more the small competition gains from its batches (three ids: 2.3x at 100 events
  // a batch), though what an event writes stays its own ids.
  it('is within 2x for a competition of 1,000 categories of what it is for one of ten', async () => {
    const small = await perEvent(1_000, 10, 1);
    const large = await perEvent(1_000, 1_000, 1);
    expect(small.entriesCount).toBe(1_000 + 500 - 166);
    expect(large.entriesCount).toBe(1_000 + 500 - 166);
    // Each event loads and writes the counters of the ids it and its entry name (one before, one after).
    for (const cost of [small, large]) {
      expect(cost.categoryLoads).toBeLessThanOrEqual(2);
      expect(cost.categoryWrites).toBeLessThanOrEqual(2);
    }
    expect(large.bytes / small.bytes).toBeLessThan(2);
    process.stdout.write(
      `[per-event cost] bytes written per entry event: ${small.bytes.toFixed(0)} (10 categories), ${large.bytes.toFixed(0)} (1,000)\n`,
    );
  }, 120_000);
});
