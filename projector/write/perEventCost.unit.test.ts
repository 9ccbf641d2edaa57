import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../services/events/index.ts';
import { category } from '../../test/api/eventBuilders.ts';
import { exampleEvent } from '../../test/support/exampleEvents.ts';
import { MemoryProjectionStore } from '../../test/support/memoryProjectionStore.ts';
import { eventStream, numberedUuid, uuid, type EventStream } from '../../test/support/testEvents.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import { projectEvents } from './projectEvents.ts';

// The cost of an event is the event's, not its aggregate's: an entry into a competition of
// 100,000 entries loads and writes about what one into a competition of ten does. Counted
// through the memory store (documents loaded, bytes written), never timed.

const config: ProjectionConfig = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const CATEGORIES = 1_000;
const BATCH = 100;
const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

interface Competition {
  s: EventStream;
  categoryIds: string[];
  entryIds: string[];
}

function opening(): { competition: Competition; events: DomainEvent[] } {
  const s = eventStream(uuid());
  const categoryIds = Array.from({ length: CATEGORIES }, (_, i) => numberedUuid('ca000000-0000-4000-8000-', i + 1));
  const events: DomainEvent[] = [
    s.next('competition.drafted', at(0), exampleEvent('competition.drafted').data),
    s.next('competition.published', at(1), {}),
    ...categoryIds.map((id, i) => s.next('competition.category_added', at(2 + i), { category: { ...category(i + 1), id } })),
  ];
  return { competition: { s, categoryIds, entryIds: [] }, events };
}

/** `n` submissions (each naming three categories), then as many changes and withdrawals of earlier entries. */
function entries(c: Competition, n: number, from: number): DomainEvent[] {
  const named = (i: number): string[] => [0, 1, 2].map((k) => c.categoryIds[(i * 7 + k * 331) % CATEGORIES]!);
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
      : c.s.next('competition.entry_changed', at(from + i), { entryId, categoryIds: [c.categoryIds[(i * 13) % CATEGORIES]!] });
  });
}

async function project(store: MemoryProjectionStore, events: readonly DomainEvent[], batch = BATCH): Promise<void> {
  for (let i = 0; i < events.length; i += batch) await projectEvents(events.slice(i, i + batch), store, config, NOW);
}

/** Per event of `measured`: bytes written and entry records loaded and written. */
async function perEvent(size: number): Promise<{ bytes: number; loads: number; writes: number; entriesCount: number }> {
  const { competition, events } = opening();
  const seed = new MemoryProjectionStore({ clone: false, keepDocuments: false });
  await project(seed, [...events, ...entries(competition, size, 10_000)], 5_000);
  const store = new MemoryProjectionStore({ countBytes: true });
  // The measured store starts from the seeded one's contents (what a database would hold).
  for (const [id, state] of seed.states.competition) store.states.competition.set(id, structuredClone(state));
  for (const [id, record] of seed.entries) store.entries.set(id, structuredClone(record));
  const measured = [...entries(competition, 500, 200_000), ...changes(competition, 500, 300_000)];
  await project(store, measured);
  const bytes = [...store.bytes.values()].reduce((a, b) => a + b, 0);
  const doc = store.docs.competitions.get(competition.s.aggregateId) as { registration: { entriesCount: number } };
  return {
    bytes: bytes / measured.length,
    loads: (store.loads.get('competition_entries') ?? 0) / measured.length,
    writes: (store.writes.get('competition_entries') ?? 0) / measured.length,
    entriesCount: doc.registration.entriesCount,
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
});
