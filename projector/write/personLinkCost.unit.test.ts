import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../services/events/index.ts';
import { dancerGrant, LV, person } from '../../test/api/eventBuilders.ts';
import { MemoryProjectionStore } from '../../test/support/memoryProjectionStore.ts';
import { eventStream, numberedUuid, uuid, type EventStream } from '../../test/support/testEvents.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import { projectEvents } from './projectEvents.ts';

// The cost of a link event is the event's, not the person's history: a dancer who joined and
// left 10,000 times loads and writes about what one who did so ten times does. Counted through
// the memory store (bytes written and loaded), never timed.

const config: ProjectionConfig = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const BATCH = 50;
const at = (i: number): string => new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();

interface Dancer {
  s: EventStream;
  changes: number;
  at: number;
}

function opening(): { dancer: Dancer; events: DomainEvent[] } {
  const s = eventStream(uuid());
  const events: DomainEvent[] = [
    s.next('person.registered', at(0), person('Anna', 'Ozola', LV)),
    s.next('person.role_granted', at(1), dancerGrant(at(1), '2030-01-01')),
  ];
  return { dancer: { s, changes: 0, at: 10 }, events };
}

/** `n` link changes: the dancer joins a club, then leaves it, then a coach is assigned and unassigned, each a new subject. */
function linkChanges(d: Dancer, n: number): DomainEvent[] {
  return Array.from({ length: n }, () => {
    const i = d.changes++;
    const subject = numberedUuid('b0000000-0000-4000-8000-', Math.floor(i / 2) + 1);
    const since = at(d.at).slice(0, 10);
    const coach = Math.floor(i / 2) % 2 === 1;
    if (coach)
      return i % 2 === 0
        ? d.s.next('person.coach_assigned', at(d.at++), { coachId: subject, since })
        : d.s.next('person.coach_unassigned', at(d.at++), { coachId: subject });
    return i % 2 === 0
      ? d.s.next('person.club_joined', at(d.at++), { role: 'dancer', clubId: subject, since })
      : d.s.next('person.club_left', at(d.at++), { role: 'dancer', clubId: subject });
  });
}

async function project(store: MemoryProjectionStore, events: readonly DomainEvent[], batch = BATCH): Promise<void> {
  for (let i = 0; i < events.length; i += batch) await projectEvents(events.slice(i, i + batch), store, config, NOW);
}

const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);

/** Per measured link event: bytes written and bytes loaded. */
async function perEvent(size: number): Promise<{ written: number; loaded: number; clubIds: number }> {
  const { dancer, events } = opening();
  const store = new MemoryProjectionStore({ countBytes: true });
  await project(store, [...events, ...linkChanges(dancer, size)], 5_000);
  store.bytes.clear();
  store.loadedBytes.clear();
  const measured = linkChanges(dancer, 500);
  await project(store, measured);
  const doc = store.docs.dancers.get(dancer.s.aggregateId) as { q: { clubIds: string[] } };
  return { written: sum(store.bytes) / measured.length, loaded: sum(store.loadedBytes) / measured.length, clubIds: doc.q.clubIds.length };
}

describe('the cost of a link event', () => {
  it('is within 2x for a dancer of 10,000 link changes of what it is for one of ten', async () => {
    const small = await perEvent(10);
    const large = await perEvent(10_000);
    expect(small.clubIds).toBe(0);
    expect(large.clubIds).toBe(0);
    process.stdout.write(
      `[per-event cost] bytes written/loaded per link event: ${small.written.toFixed(0)}/${small.loaded.toFixed(0)} (10 changes), ` +
        `${large.written.toFixed(0)}/${large.loaded.toFixed(0)} (10,000)\n`,
    );
    expect(large.written / small.written).toBeLessThan(2);
    expect(large.loaded / small.loaded).toBeLessThan(2);
  }, 120_000);
});
