import { describe, expect, expectTypeOf, it } from 'vitest';
import { EVENT_TYPES, aggregateOf, isEventType } from './index.ts';
import type { DomainEvent, EventData, EventOfType } from './index.ts';

// The type names of shared/spec/events.md, copied by hand so that a type added to or dropped
// from the schemas without the contract (or the other way round) fails here.
const contractTypes = {
  competition: [
    'drafted',
    'published',
    'details_changed',
    'completed',
    'unpublished',
    'deleted',
    'category_added',
    'category_changed',
    'category_removed',
    'entry_submitted',
    'entry_changed',
    'entry_withdrawn',
  ],
  person: [
    'registered',
    'details_changed',
    'role_granted',
    'role_details_changed',
    'membership_paid',
    'membership_status_changed',
    'role_archived',
    'role_reinstated',
    'exception_placed',
    'exception_lifted',
    'club_joined',
    'club_left',
    'coach_assigned',
    'coach_unassigned',
  ],
  club: [
    'registered',
    'details_changed',
    'location_added',
    'location_changed',
    'location_removed',
    'main_location_set',
    'archived',
    'reinstated',
    'exception_placed',
    'exception_lifted',
  ],
} as const;
const contractNames = Object.entries(contractTypes).flatMap(([aggregate, names]) => names.map((n) => `${aggregate}.${n}`));

describe('EVENT_TYPES', () => {
  it('lists exactly the types of the contract', () => {
    expect([...EVENT_TYPES].sort()).toEqual([...contractNames].sort());
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(EVENT_TYPES)).toBe(true);
  });
});

describe('aggregateOf', () => {
  it.each(contractNames)('%s belongs to the aggregate of its prefix', (type) => {
    if (!isEventType(type)) throw new Error(`${type} is not an event type`);
    expect(aggregateOf(type)).toBe(type.split('.')[0]);
  });
});

describe('isEventType', () => {
  it('rejects names outside the contract, inherited keys included', () => {
    expect(isEventType('competition.renamed')).toBe(false);
    expect(isEventType('toString')).toBe(false);
  });
});

describe('derived types', () => {
  it('narrow DomainEvent by type', () => {
    const narrow = (event: DomainEvent) => (event.type === 'person.membership_paid' ? event.data.role : null);
    expectTypeOf(narrow).returns.toEqualTypeOf<'dancer' | 'judge' | null>();
    expectTypeOf<EventOfType<'competition.entry_submitted'>['data']>().toEqualTypeOf<{ entryId: string; categoryIds: string[] }>();
    expectTypeOf<EventData<'competition.category_added'>['category']['level']>().toEqualTypeOf<number | null>();
    expectTypeOf<EventOfType<'club.archived'>['schemaVersion']>().toEqualTypeOf<1>();
  });

  it('tell roles apart in a grant', () => {
    const dancer: EventData<'person.role_granted'> = {
      role: 'dancer',
      approvedAt: '2025-01-01T00:00:00Z',
      registryUntil: null,
      danceClass: 2,
      hasPartner: false,
    };
    // @ts-expect-error a dancer grant carries no judge fields
    const mixed: EventData<'person.role_granted'> = { ...dancer, judgeCategory: 1 };
    expect([dancer, mixed]).toHaveLength(2);
  });
});
