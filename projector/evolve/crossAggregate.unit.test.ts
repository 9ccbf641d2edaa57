import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DomainEvent, EventData } from '../../services/events/index.ts';
import { createInMemoryReadModel, type InMemoryReadModel } from '../../test/support/inMemoryReadModel.ts';
import { eventStream, uuid } from '../../test/support/testEvents.ts';
import { dancerGrant } from '../../test/api/eventBuilders.ts';

// Coaches and clubs derived from the link facts persons own (rules 2, 4, 5, 6), projected
// through the writer protocol (inMemoryReadModel.ts).

const config = { zone: 'UTC', bufferPeriodDays: 30 };
const latvia = { id: 117, name: 'Latvia', code: 'LV' };
const person = (name: string): EventData<'person.registered'> => ({
  name,
  surname: 'Ozols',
  nameEn: name,
  surnameEn: 'Ozols',
  sex: 'MALE',
  avatar: null,
  country: latvia,
});
const clubData = (): EventData<'club.registered'> => ({
  name: 'DSC Aurora',
  logo: null,
  foundedOn: '1998',
  approvedAt: null,
  contacts: { phone: null, email: null, website: null, instagram: null, facebook: null },
  locations: [{ id: uuid(), type: 'main', address: 'Brīvības iela 1', city: 'Rīga', country: latvia, placeId: null }],
});

function run(events: DomainEvent[], now?: string): InMemoryReadModel {
  const m = createInMemoryReadModel(config);
  for (const e of events) m.apply(e, new Date(now ?? e.occurredAt));
  return m;
}
const at = (m: InMemoryReadModel, now: string): InMemoryReadModel => {
  m.sweep(new Date(now));
  return m;
};

function coachWithDancer() {
  const coach = eventStream(uuid());
  const dancer = eventStream(uuid());
  const events: DomainEvent[] = [
    coach.next('person.registered', '2024-01-01T09:00:00Z', person('Coach')),
    coach.next('person.role_granted', '2024-01-01T10:00:00Z', {
      role: 'coach',
      approvedAt: '2024-01-01T10:00:00Z',
      registryUntil: null,
      highestClass: 8,
    }),
    dancer.next('person.registered', '2024-01-02T09:00:00Z', person('Dancer')),
    dancer.next('person.role_granted', '2024-01-02T10:00:00Z', dancerGrant('2024-01-02T10:00:00Z', '2024-06-01')),
    dancer.next('person.coach_assigned', '2024-01-03T10:00:00Z', { coachId: coach.aggregateId, since: '2024-01-03' }),
  ];
  return { coach, dancer, events };
}

describe('coach listing (rules 4, 5)', () => {
  it('is in the buffer from the grant until it holds a registry dancer', () => {
    const { coach, events } = coachWithDancer();
    const m = run(events.slice(0, 2));
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({
      registryState: 'BUFFER',
      archivedAt: null,
      registryUntil: null,
      q: { bufferSince: '2024-01-01T10:00:00.000Z' },
    });
    expect(m.coaches.get(coach.aggregateId)?.nextDueAt?.toISOString()).toBe('2024-01-31T10:00:00.000Z');
    const listed = run(events);
    expect(listed.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'REGISTRY', nextDueAt: null, q: { bufferSince: null } });
    expect(listed.dancers.get(events[2]?.aggregateId ?? '')?.q.coachIds).toEqual([coach.aggregateId]);
  });

  it('enters the buffer when its last dancer is archived, and the archive takes it at the end of the period', () => {
    const { coach, dancer, events } = coachWithDancer();
    const m = run(events);
    at(m, '2024-06-01T00:00:00Z');
    expect(m.dancers.get(dancer.aggregateId)).toMatchObject({ registryState: 'ARCHIVE', q: { coachIds: [] } });
    const buffered = m.coaches.get(coach.aggregateId);
    expect(buffered).toMatchObject({ registryState: 'BUFFER', q: { bufferSince: '2024-06-01T00:00:00.000Z' } });
    expect(buffered?.nextDueAt?.toISOString()).toBe('2024-07-01T00:00:00.000Z');
    at(m, '2024-06-30T23:59:59Z');
    expect(m.coaches.get(coach.aggregateId)?.registryState).toBe('BUFFER');
    at(m, '2024-07-01T00:00:00Z');
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: '2024-07-01T00:00:00.000Z',
      nextDueAt: null,
    });
  });

  it('stays archived when a dancer comes back later, until it is reinstated', () => {
    const { coach, dancer, events } = coachWithDancer();
    const later: DomainEvent[] = [
      ...events,
      dancer.next('person.role_reinstated', '2024-07-05T10:00:00Z', { role: 'dancer', registryUntil: '2025-07-05' }),
      dancer.next('person.coach_assigned', '2024-07-06T10:00:00Z', { coachId: coach.aggregateId, since: '2024-07-06' }),
    ];
    const m = at(run(later), '2024-07-07T00:00:00Z');
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-07-01T00:00:00.000Z' });
    m.apply(
      coach.next('person.role_reinstated', '2024-07-10T10:00:00Z', { role: 'coach', registryUntil: null }),
      new Date('2024-07-10T10:00:00Z'),
    );
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'REGISTRY', archivedAt: null });
  });

  it('leaves the buffer when it acquires a dancer within the period, and its buffer clock restarts next time', () => {
    const { coach, dancer, events } = coachWithDancer();
    const other = eventStream(uuid());
    const m = run([
      ...events,
      dancer.next('person.coach_unassigned', '2024-02-01T10:00:00Z', { coachId: coach.aggregateId }),
      other.next('person.registered', '2024-02-20T09:00:00Z', person('Other')),
      other.next('person.role_granted', '2024-02-20T10:00:00Z', {
        role: 'dancer',
        approvedAt: '2024-02-20T10:00:00Z',
        registryUntil: null,
        danceClass: 2,
        hasPartner: false,
      }),
      other.next('person.coach_assigned', '2024-02-25T10:00:00Z', { coachId: coach.aggregateId, since: '2024-02-25' }),
      other.next('person.coach_unassigned', '2024-03-01T10:00:00Z', { coachId: coach.aggregateId }),
    ]);
    at(m, '2024-03-30T10:00:00Z');
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'BUFFER', q: { bufferSince: '2024-03-01T10:00:00.000Z' } });
    at(m, '2024-03-31T10:00:00Z');
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-03-31T10:00:00.000Z' });
  });

  it('does not count a dancer held in ARCHIVE by an exception, and counts one held in REGISTRY', () => {
    const { coach, dancer, events } = coachWithDancer();
    const m = run([
      ...events,
      dancer.next('person.exception_placed', '2024-03-01T10:00:00Z', {
        role: 'dancer',
        registryState: 'ARCHIVE',
        until: '2024-03-15T10:00:00Z',
      }),
    ]);
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'BUFFER', q: { bufferSince: '2024-03-01T10:00:00.000Z' } });
    at(m, '2024-03-15T10:00:00Z');
    expect(m.coaches.get(coach.aggregateId)?.registryState).toBe('REGISTRY');
  });

  it('is listed by an exception while in the buffer, and the archive waits for the exception to end', () => {
    const { coach, events } = coachWithDancer();
    const m = run([
      ...events.slice(0, 2),
      coach.next('person.exception_placed', '2024-01-20T10:00:00Z', {
        role: 'coach',
        registryState: 'REGISTRY',
        until: '2024-03-01T00:00:00Z',
      }),
    ]);
    at(m, '2024-02-15T00:00:00Z');
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'REGISTRY', archivedAt: null });
    expect(m.coaches.get(coach.aggregateId)?.nextDueAt?.toISOString()).toBe('2024-03-01T00:00:00.000Z');
    at(m, '2024-03-01T00:00:00Z');
    expect(m.coaches.get(coach.aggregateId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-03-01T00:00:00.000Z' });
  });
});

describe('club membership (rules 4, 5) and counts', () => {
  function world() {
    const { coach, dancer, events } = coachWithDancer();
    const club = eventStream(uuid());
    const clubId = club.aggregateId;
    const all: DomainEvent[] = [
      club.next('club.registered', '2024-01-01T08:00:00Z', clubData()),
      ...events,
      coach.next('person.club_joined', '2024-01-04T10:00:00Z', { role: 'coach', clubId, since: '2024-01-04' }),
      dancer.next('person.club_joined', '2024-01-05T10:00:00Z', { role: 'dancer', clubId, since: '2024-01-05' }),
    ];
    return { coach, dancer, club, clubId, events: all };
  }

  it('is in the buffer without members, listed with a registry member, and counts listed members', () => {
    const { clubId, events } = world();
    expect(run(events.slice(0, 1)).clubs.get(clubId)).toMatchObject({ registryState: 'BUFFER', dancersCount: 0, coachesCount: 0 });
    const m = run(events);
    expect(m.clubs.get(clubId)).toMatchObject({
      registryState: 'REGISTRY',
      dancersCount: 1,
      coachesCount: 1,
      archivedAt: null,
      registryUntil: null,
    });
    expect(m.coaches.get(events[1]?.aggregateId ?? '')?.q.clubIds).toEqual([clubId]);
  });

  it('stays listed through a coach that is listed; a buffer coach does not count', () => {
    const { clubId, dancer, events } = world();
    const m = run([...events, dancer.next('person.club_left', '2024-02-01T10:00:00Z', { role: 'dancer', clubId })]);
    expect(m.clubs.get(clubId)).toMatchObject({ registryState: 'REGISTRY', dancersCount: 0, coachesCount: 1 });
    m.apply(
      dancer.next('person.coach_unassigned', '2024-02-02T10:00:00Z', { coachId: events[1]?.aggregateId ?? '' }),
      new Date('2024-02-02T10:00:00Z'),
    );
    expect(m.clubs.get(clubId)).toMatchObject({
      registryState: 'BUFFER',
      dancersCount: 0,
      coachesCount: 0,
      q: { bufferSince: '2024-02-02T10:00:00.000Z' },
    });
  });

  it('drops members whose links closed by archival, enters the buffer at that instant and is archived at the end of the period', () => {
    const { clubId, events } = world();
    const m = at(run(events), '2024-06-01T00:00:00Z');
    expect(m.clubs.get(clubId)).toMatchObject({
      registryState: 'BUFFER',
      dancersCount: 0,
      coachesCount: 0,
      q: { bufferSince: '2024-06-01T00:00:00.000Z' },
    });
    at(m, '2024-07-01T00:00:00Z');
    expect(m.clubs.get(clubId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-07-01T00:00:00.000Z' });
  });

  it('is archived and reinstated explicitly; reinstated, it is listed only while it holds a member', () => {
    const { clubId, club, events } = world();
    const m = run([...events, club.next('club.archived', '2024-03-01T10:00:00Z', {})]);
    expect(m.clubs.get(clubId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-03-01T10:00:00.000Z', dancersCount: 1 });
    m.apply(club.next('club.reinstated', '2024-03-02T10:00:00Z', {}), new Date('2024-03-02T10:00:00Z'));
    expect(m.clubs.get(clubId)).toMatchObject({ registryState: 'REGISTRY', archivedAt: null });
  });

  it('follows exceptions both ways', () => {
    const { clubId, club, events } = world();
    const m = run([
      ...events,
      club.next('club.exception_placed', '2024-03-01T10:00:00Z', { registryState: 'ARCHIVE', until: '2024-04-01T00:00:00Z' }),
    ]);
    expect(m.clubs.get(clubId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-03-01T10:00:00.000Z' });
    m.apply(club.next('club.exception_lifted', '2024-03-05T10:00:00Z', {}), new Date('2024-03-05T10:00:00Z'));
    expect(m.clubs.get(clubId)).toMatchObject({ registryState: 'REGISTRY', archivedAt: null });

    const empty = eventStream(uuid());
    const e = run([
      empty.next('club.registered', '2024-01-01T00:00:00Z', clubData()),
      empty.next('club.exception_placed', '2024-01-10T00:00:00Z', { registryState: 'REGISTRY', until: '2024-03-01T00:00:00Z' }),
    ]);
    at(e, '2024-02-15T00:00:00Z');
    expect(e.clubs.get(empty.aggregateId)).toMatchObject({ registryState: 'REGISTRY', archivedAt: null });
    at(e, '2024-03-01T00:00:00Z');
    expect(e.clubs.get(empty.aggregateId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-03-01T00:00:00.000Z' });
  });
});

describe('order independence and replay', () => {
  function scenario() {
    const { coach, dancer, events } = coachWithDancer();
    const club = eventStream(uuid());
    const clubId = club.aggregateId;
    const judge = eventStream(uuid());
    const streams: DomainEvent[][] = [
      [
        club.next('club.registered', '2024-01-01T08:00:00Z', clubData()),
        club.next('club.exception_placed', '2024-08-01T00:00:00Z', { registryState: 'REGISTRY', until: '2024-08-20T00:00:00Z' }),
      ],
      [
        ...events.filter((e) => e.aggregateId === coach.aggregateId),
        coach.next('person.club_joined', '2024-01-04T10:00:00Z', { role: 'coach', clubId, since: '2024-01-04' }),
      ],
      [
        ...events.filter((e) => e.aggregateId === dancer.aggregateId),
        dancer.next('person.club_joined', '2024-01-05T10:00:00Z', { role: 'dancer', clubId, since: '2024-01-05' }),
        dancer.next('person.membership_paid', '2024-05-01T10:00:00Z', {
          role: 'dancer',
          status: 'ACTIVE',
          membershipExpiresAt: '2024-05-20T00:00:00Z',
          registryUntil: '2024-07-01',
        }),
        dancer.next('person.role_reinstated', '2024-09-01T10:00:00Z', { role: 'dancer', registryUntil: '2025-09-01' }),
        dancer.next('person.club_joined', '2024-09-02T10:00:00Z', { role: 'dancer', clubId, since: '2024-09-02' }),
      ],
      [
        judge.next('person.registered', '2024-01-01T00:00:00Z', person('Judge')),
        judge.next('person.role_granted', '2024-01-01T00:00:00Z', {
          role: 'judge',
          approvedAt: '2024-01-01T00:00:00Z',
          registryUntil: '2024-03-01',
          judgeCategory: 1,
          positions: ['judge'],
        }),
        judge.next('person.role_granted', '2024-01-01T00:01:00Z', {
          role: 'dancer',
          approvedAt: '2024-01-01T00:01:00Z',
          registryUntil: null,
          danceClass: 1,
          hasPartner: false,
        }),
        judge.next('person.club_joined', '2024-02-01T00:00:00Z', { role: 'dancer', clubId, since: '2024-02-01' }),
        judge.next('person.club_left', '2024-07-25T00:00:00Z', { role: 'dancer', clubId }),
      ],
    ];
    return { streams, clubId };
  }

  const snapshot = (m: InMemoryReadModel) => ({
    dancers: Object.fromEntries([...m.dancers].sort()),
    coaches: Object.fromEntries([...m.coaches].sort()),
    judges: Object.fromEntries([...m.judges].sort()),
    clubs: Object.fromEntries([...m.clubs].sort()),
  });

  const finalNow = '2024-10-01T00:00:00Z';

  it('gives the same documents live (clock sweeps included) and replayed at the end', () => {
    const { streams, clubId } = scenario();
    const ordered = streams.flat().sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt));
    const live = createInMemoryReadModel(config);
    for (const e of ordered) {
      live.sweep(new Date(e.occurredAt));
      live.apply(e, new Date(e.occurredAt));
    }
    at(live, finalNow);
    const replay = at(run(ordered, finalNow), finalNow);
    expect(snapshot(live)).toEqual(snapshot(replay));
    // The club went to the buffer when its last member left (judge 2024-07-25), was held by
    // the exception from 2024-08-01 to 2024-08-20, and the archive took it at 2024-08-24.
    expect(replay.clubs.get(clubId)).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-08-24T00:00:00.000Z', dancersCount: 1 });
  });

  it('gives the same documents whatever the interleaving of the aggregates', () => {
    const { streams } = scenario();
    const reference = snapshot(at(run(streams.flat(), finalNow), finalNow));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: streams.length - 1 }), { minLength: 40, maxLength: 40 }), (picks) => {
        const queues = streams.map((s) => [...s]);
        const order: DomainEvent[] = [];
        for (const pick of picks) {
          const queue = queues[pick] ?? [];
          const next = queue.shift();
          if (next) order.push(next);
        }
        for (const queue of queues) order.push(...queue);
        const m = at(run(order, finalNow), finalNow);
        expect(snapshot(m)).toEqual(reference);
      }),
      { numRuns: 60 },
    );
  });

  it('applies duplicates delivered again without changing a document', () => {
    const { streams } = scenario();
    const events = streams.flat();
    const m = at(run(events, finalNow), finalNow);
    const before = snapshot(m);
    for (const e of events) expect(m.apply(e, new Date(finalNow))).toBe('duplicate');
    expect(snapshot(m)).toEqual(before);
  });
});
