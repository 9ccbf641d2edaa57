import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../services/events/index.ts';
import { dancerGrant, LV, person } from '../../test/api/eventBuilders.ts';
import { eventStream, uuid } from '../../test/support/testEvents.ts';
import { type MemberLinkFact, type ProjectionConfig } from '../evolve/index.ts';
import { foldEvents } from './foldEvents.ts';
import { planCascade, type DueSubjects } from './planCascade.ts';
import type { States } from './projectionStore.ts';

const config: ProjectionConfig = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const noneDue: DueSubjects = { competitions: [], persons: [], coaches: [], clubs: [] };

const clubId = uuid();
const coachId = uuid();
const dancer = eventStream(uuid());
const joined: DomainEvent[] = [
  dancer.next('person.registered', '2026-01-02T09:00:00Z', person('Anna', 'Ozola', LV)),
  dancer.next('person.role_granted', '2026-01-02T10:00:00Z', dancerGrant('2026-01-02T10:00:00Z', '2030-01-01')),
  dancer.next('person.club_joined', '2026-01-03T10:00:00Z', { role: 'dancer', clubId, since: '2026-01-03' }),
  dancer.next('person.coach_assigned', '2026-01-03T11:00:00Z', { coachId, since: '2026-01-03' }),
];
const paid = dancer.next('person.membership_paid', '2026-02-01T10:00:00Z', {
  role: 'dancer',
  status: 'ACTIVE',
  membershipExpiresAt: '2027-02-01T00:00:00Z',
  registryUntil: '2030-01-01',
});

/** Folds `stored` (the state as loaded) and then the batch's `events` (its own), and plans at NOW. */
function plan(stored: DomainEvent[], events: DomainEvent[], storedFacts: MemberLinkFact[], due = noneDue) {
  const states: States = { competition: new Map(), person: new Map(), club: new Map() };
  foldEvents(stored, states, config);
  const { replayed } = foldEvents(events, states, config);
  const withEvents = {
    competition: new Set<string>(),
    person: new Set(events.map((e) => e.aggregateId)),
    club: new Set<string>(),
  };
  return planCascade(
    {
      states,
      withEvents,
      due,
      replayed,
      storedFacts: new Map(storedFacts.map((f) => [f._id, f])),
      entries: new Map(),
      categories: new Map(),
    },
    NOW,
    config,
  );
}

describe('planCascade', () => {
  const first = plan(joined.slice(0, 2), joined.slice(2), []);
  const facts = [...first.own.facts.values()];

  it('derives the club and the coach a new link reaches', () => {
    expect(facts.map((f) => `${f.kind}|${f.subjectId}`).sort()).toEqual([`club|${clubId}`, `coach|${coachId}`].sort());
    expect([...first.clubs]).toEqual([clubId]);
    expect([...first.coaches.ids]).toEqual([coachId]);
    expect(first.coaches.forced.size).toBe(0);
  });

  it('leaves them alone when an event changes no fact, such as a payment', () => {
    const afterPayment = plan(joined, [paid], facts);
    expect(afterPayment.own.docs.dancers.has(dancer.aggregateId)).toBe(true);
    expect(afterPayment.clubs.size + afterPayment.coaches.ids.size).toBe(0);
  });

  it('derives them, forced, when the member comes back as a duplicate (a replay after a crash)', () => {
    const replay = plan([...joined, paid], [paid], facts);
    expect([...replay.clubs]).toEqual([clubId]);
    expect([...replay.coaches.forced]).toEqual([coachId]);
  });

  it('writes no state for a clock sweep, and defers the swept documents to the last write', () => {
    const sweep = plan(joined, [], facts, { ...noneDue, persons: [dancer.aggregateId] });
    expect(sweep.own.states.person.size).toBe(0);
    expect(sweep.own.docs.dancers.size).toBe(0);
    expect([...sweep.swept.dancers.keys()]).toEqual([dancer.aggregateId]);
    expect([...sweep.coaches.forced]).toEqual([coachId]);
  });

  it('ignores a state it was handed without events or a due sweep', () => {
    const idle = plan(joined, [], facts);
    expect(idle.own.states.person.size).toBe(0);
    expect(idle.clubs.size + idle.coaches.ids.size).toBe(0);
    expect(idle.swept.dancers.size).toBe(0);
  });
});
