import { deepFreeze } from '../../test/support/deepFreeze.ts';
import { describe, expect, it } from 'vitest';
import { countryIdKey } from '../../services/readModel/index.ts';
import type { EventData } from '../../services/events/index.ts';
import {
  advancePerson,
  dancerLinkFacts,
  evolvePerson,
  initialPersonState,
  roleReadDocuments,
  type PersonEvent,
  type PersonState,
} from './index.ts';
import { eventStream, uuid, type EventStream } from '../../test/support/testEvents.ts';

const riga = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const latvia = { id: 117, name: 'Latvia', code: 'LV' };
const registered: EventData<'person.registered'> = {
  name: 'Jānis',
  surname: 'Bērziņš',
  nameEn: 'Janis',
  surnameEn: 'Berzins',
  sex: 'MALE',
  avatar: null,
  country: latvia,
};
const dancerGrant = (registryUntil: string | null): EventData<'person.role_granted'> => ({
  role: 'dancer',
  approvedAt: '2024-01-01T10:00:00Z',
  registryUntil,
  danceClass: 4,
  hasPartner: false,
});
const judgeGrant = (registryUntil: string | null): EventData<'person.role_granted'> => ({
  role: 'judge',
  approvedAt: '2024-01-02T10:00:00Z',
  registryUntil,
  judgeCategory: 2,
  positions: ['judge', 'headJudge'],
});

function project(events: PersonEvent[], state?: PersonState): PersonState {
  const first = events[0];
  let s = deepFreeze(state ?? initialPersonState(first?.aggregateId ?? uuid()));
  for (const event of events) s = deepFreeze(evolvePerson(s, event, riga).state);
  return s;
}

const docsAt = (state: PersonState, now: string) => roleReadDocuments(state, new Date(now), riga);
function dancerAt(state: PersonState, now: string) {
  const d = docsAt(state, now).dancer;
  if (!d) throw new Error('no dancer document');
  return d;
}
function dancer(registryUntil: string | null = '2025-03-01'): { s: EventStream; events: PersonEvent[] } {
  const s = eventStream(uuid());
  return {
    s,
    events: [
      s.next('person.registered', '2024-01-01T09:00:00Z', registered),
      s.next('person.role_granted', '2024-01-01T10:00:00Z', dancerGrant(registryUntil)),
    ],
  };
}

describe('person and role documents', () => {
  it('lists nothing for a person without roles', () => {
    const s = eventStream(uuid());
    expect(docsAt(project([s.next('person.registered', '2024-01-01T09:00:00Z', registered)]), '2024-01-02T00:00:00Z')).toEqual({
      dancer: null,
      judge: null,
    });
  });

  it('shows person fields, role fields and query keys; person details changes show on every role', () => {
    const { s, events } = dancer();
    const state = project([
      ...events,
      s.next('person.role_granted', '2024-01-02T10:00:00Z', judgeGrant('2025-03-01')),
      s.next('person.details_changed', '2024-02-01T10:00:00Z', { avatar: 'https://cdn.example/a.jpg', surnameEn: 'Berzinsh' }),
      s.next('person.role_details_changed', '2024-02-02T10:00:00Z', { role: 'dancer', changes: { danceClass: 5, hasPartner: true } }),
    ]);
    const { dancer: d, judge: j } = docsAt(state, '2024-03-01T00:00:00Z');
    expect(d).toMatchObject({
      id: state.id,
      name: 'Jānis',
      surname: 'Bērziņš',
      nameEn: 'Janis',
      surnameEn: 'Berzinsh',
      avatar: 'https://cdn.example/a.jpg',
      country: latvia,
      danceClass: 5,
      status: null,
      membershipExpiresAt: null,
      registryState: 'REGISTRY',
      registryUntil: '2025-03-01',
      archivedAt: null,
    });
    expect(d?.q).toMatchObject({
      sex: 'MALE',
      hasPartner: true,
      country: ['latvia', 'lv', countryIdKey(117)],
      nameKey: 'berzinsh\u0001janis',
      approvedAt: '2024-01-01T10:00:00.000Z',
      approvedRank: 0,
    });
    expect(j).toMatchObject({ avatar: 'https://cdn.example/a.jpg', judgeCategory: 2, registryState: 'REGISTRY' });
    expect(j?.q.positions).toEqual(['judge', 'headJudge']);
    expect(j?.q.approvedAt).toBe('2024-01-02T10:00:00.000Z');
  });

  it('is found by either spelling, with or without diacritics', () => {
    const { events } = dancer();
    const d = dancerAt(project(events), '2024-02-01T00:00:00Z');
    expect(d.s.text.split('\n')).toEqual(expect.arrayContaining(['janis', 'berzins', 'janis berzins', 'berzins janis']));
    expect(d.s.tokens).toEqual(expect.arrayContaining(['ber', 'zin', 'is ']));
  });
});

describe('rule 1: archival at the start of the registryUntil day (Europe/Riga)', () => {
  const { s, events } = dancer('2025-03-01');
  const state = project(events);

  it('is REGISTRY until the instant the day starts, ARCHIVE from it, with archivedAt = that instant', () => {
    const before = dancerAt(state, '2025-02-28T21:59:59.999Z');
    expect(before).toMatchObject({ registryState: 'REGISTRY', registryUntil: '2025-03-01', archivedAt: null });
    expect(before.nextDueAt?.toISOString()).toBe('2025-02-28T22:00:00.000Z');
    const after = dancerAt(state, '2025-02-28T22:00:00Z');
    expect(after).toMatchObject({ registryState: 'ARCHIVE', registryUntil: null, archivedAt: '2025-02-28T22:00:00.000Z' });
    expect(after.nextDueAt).toBeNull();
  });

  it('is moved later by a payment made before the day', () => {
    const paid = project(
      [
        s.next('person.membership_paid', '2025-02-20T10:00:00Z', {
          role: 'dancer',
          status: 'ACTIVE',
          membershipExpiresAt: '2026-02-20T10:00:00Z',
          registryUntil: '2026-05-20',
        }),
      ],
      state,
    );
    expect(dancerAt(paid, '2025-03-02T00:00:00Z')).toMatchObject({
      registryState: 'REGISTRY',
      registryUntil: '2026-05-20',
      status: 'ACTIVE',
      membershipExpiresAt: '2026-02-20T10:00:00.000Z',
    });
  });

  it('is not undone by a payment made after the day', () => {
    const paid = project(
      [
        s.next('person.membership_paid', '2025-03-05T10:00:00Z', {
          role: 'dancer',
          status: 'ACTIVE',
          membershipExpiresAt: '2026-03-05T10:00:00Z',
          registryUntil: '2026-06-05',
        }),
      ],
      state,
    );
    expect(dancerAt(paid, '2025-03-06T00:00:00Z')).toMatchObject({
      registryState: 'ARCHIVE',
      status: 'ACTIVE',
      archivedAt: '2025-02-28T22:00:00.000Z',
      registryUntil: null,
    });
  });

  it('applies an explicit archival at occurredAt', () => {
    const archived = project([s.next('person.role_archived', '2024-06-01T12:00:00+03:00', { role: 'dancer' })], state);
    expect(dancerAt(archived, '2024-06-02T00:00:00Z')).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-06-01T09:00:00.000Z' });
  });

  it('archives at the reinstatement instant when the reinstatement names a day already begun', () => {
    const t = eventStream(uuid());
    const st = project([
      t.next('person.registered', '2024-01-01T09:00:00Z', registered),
      t.next('person.role_granted', '2024-01-01T10:00:00Z', dancerGrant('2024-02-01')),
      t.next('person.role_reinstated', '2024-03-01T10:00:00Z', { role: 'dancer', registryUntil: '2024-03-01' }),
    ]);
    expect(dancerAt(st, '2024-03-01T10:00:01Z')).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2024-03-01T10:00:00.000Z' });
  });

  it('never archives a role with registryUntil null', () => {
    const { events: e } = dancer(null);
    expect(dancerAt(project(e), '2099-01-01T00:00:00Z')).toMatchObject({ registryState: 'REGISTRY', registryUntil: null, nextDueAt: null });
  });
});

describe('rule 2 and the reinstatement example', () => {
  const clubId = uuid();
  const coachId = uuid();
  const { s, events } = dancer('2025-03-01');
  const linked = project([
    ...events,
    s.next('person.club_joined', '2024-01-05T10:00:00Z', { role: 'dancer', clubId, since: '2024-01-05' }),
    s.next('person.coach_assigned', '2024-01-05T10:01:00Z', { coachId, since: '2024-01-05' }),
  ]);

  it('keeps links open while listed', () => {
    expect(dancerAt(linked, '2025-02-01T00:00:00Z').q).toMatchObject({ clubIds: [clubId], coachIds: [coachId] });
  });

  it('closes the links at the due archival instant when a reinstatement arrives two days later; they stay closed', () => {
    const reinstated = project(
      [s.next('person.role_reinstated', '2025-03-03T09:00:00Z', { role: 'dancer', registryUntil: '2026-03-03' })],
      linked,
    );
    const d = dancerAt(reinstated, '2025-03-03T10:00:00Z');
    expect(d).toMatchObject({ registryState: 'REGISTRY', registryUntil: '2026-03-03', archivedAt: null });
    expect(d.q).toMatchObject({ clubIds: [], coachIds: [] });
    expect(reinstated.links.map((l) => [l.closedAt, l.closedBy])).toEqual([
      ['2025-02-28T22:00:00.000Z', 'archival'],
      ['2025-02-28T22:00:00.000Z', 'archival'],
    ]);
    const facts = dancerLinkFacts(reinstated, new Date('2025-03-03T10:00:00Z'), riga);
    expect(facts.map((f) => [f.kind, f.subjectId, f.open, f.listed])).toEqual(
      expect.arrayContaining([
        ['club', clubId, false, [{ from: '2024-01-05T10:00:00.000Z', to: '2025-02-28T22:00:00.000Z' }]],
        ['coach', coachId, false, [{ from: '2024-01-05T10:01:00.000Z', to: '2025-02-28T22:00:00.000Z' }]],
      ]),
    );
  });

  it('advances a copy: the state it was given is left exactly as it was', () => {
    const before = structuredClone(linked);
    const advanced = advancePerson(linked, '2025-03-02T00:00:00.000Z', riga.zone);
    expect(advanced.links.every((l) => l.closedBy === 'archival')).toBe(true);
    expect(advanced.roles.dancer?.own.at(-1)?.state).toBe('ARCHIVE');
    expect(linked).toEqual(before);
  });

  it('ends in the same state whether the archival was swept live before the reinstatement or not', () => {
    const reinstatement = s.next('person.role_reinstated', '2025-03-03T09:00:00Z', { role: 'dancer', registryUntil: '2026-03-03' });
    const late = evolvePerson(linked, reinstatement, riga).state;
    const sweptLive = evolvePerson(advancePerson(linked, '2025-03-01T00:00:00.000Z', riga.zone), reinstatement, riga).state;
    expect(sweptLive).toEqual(late);
    expect(roleReadDocuments(sweptLive, new Date('2025-03-04T00:00:00Z'), riga)).toEqual(
      roleReadDocuments(late, new Date('2025-03-04T00:00:00Z'), riga),
    );
  });

  it('does not archive when a payment made before the day is consumed after it (lag)', () => {
    const paid = s.next('person.membership_paid', '2025-02-27T10:00:00Z', {
      role: 'dancer',
      status: 'ACTIVE',
      membershipExpiresAt: '2026-02-27T10:00:00Z',
      registryUntil: '2026-05-27',
    });
    // The clock derived documents at a later now, but never stored an advanced state.
    expect(dancerAt(linked, '2025-03-05T00:00:00Z').registryState).toBe('ARCHIVE');
    const d = dancerAt(evolvePerson(linked, paid, riga).state, '2025-03-05T00:00:00Z');
    expect(d).toMatchObject({ registryState: 'REGISTRY', registryUntil: '2026-05-27', q: { clubIds: [clubId], coachIds: [coachId] } });
  });

  it('closes links on an explicit archival; leaving and unassigning close them too', () => {
    const archived = project([s.next('person.role_archived', '2024-06-01T10:00:00Z', { role: 'dancer' })], linked);
    expect(archived.links.every((l) => l.closedAt === '2024-06-01T10:00:00.000Z' && l.closedBy === 'archival')).toBe(true);
    const left = project(
      [
        s.next('person.club_left', '2024-06-01T10:00:00Z', { role: 'dancer', clubId }),
        s.next('person.coach_unassigned', '2024-06-01T10:01:00Z', { coachId }),
        s.next('person.club_joined', '2024-07-01T10:00:00Z', { role: 'dancer', clubId, since: '2024-07-01' }),
      ],
      linked,
    );
    expect(dancerAt(left, '2024-07-02T00:00:00Z').q).toMatchObject({ clubIds: [clubId], coachIds: [] });
    const facts = dancerLinkFacts(left, new Date('2024-07-02T00:00:00Z'), riga);
    expect(facts.find((f) => f.kind === 'club')?.listed).toEqual([
      { from: '2024-01-05T10:00:00.000Z', to: '2024-06-01T10:00:00.000Z' },
      { from: '2024-07-01T10:00:00.000Z', to: null },
    ]);
  });

  it('ignores leaving a club one is not in', () => {
    const result = evolvePerson(linked, s.next('person.club_left', '2024-06-01T10:00:00Z', { role: 'dancer', clubId: uuid() }), riga);
    expect(result.outcome).toBe('ignored');
  });
});

describe('rule 3: status per role', () => {
  const { s, events } = dancer('2026-01-01');
  const state = project([
    ...events,
    s.next('person.role_granted', '2024-01-02T10:00:00Z', judgeGrant('2026-01-01')),
    s.next('person.membership_paid', '2024-02-01T10:00:00Z', {
      role: 'dancer',
      status: 'ACTIVE',
      membershipExpiresAt: '2025-02-01T10:00:00Z',
      registryUntil: '2026-01-01',
    }),
    s.next('person.membership_paid', '2024-02-02T10:00:00Z', {
      role: 'judge',
      status: 'LIMITED',
      membershipExpiresAt: '2025-08-01T10:00:00Z',
      registryUntil: '2026-01-01',
    }),
  ]);

  it('becomes INACTIVE at membershipExpiresAt and stays listed: ACTIVE judge, INACTIVE dancer', () => {
    expect(dancerAt(state, '2025-02-01T09:59:59Z').status).toBe('ACTIVE');
    expect(dancerAt(state, '2025-02-01T09:59:59Z').nextDueAt?.toISOString()).toBe('2025-02-01T10:00:00.000Z');
    const { dancer: d, judge: j } = docsAt(state, '2025-02-01T10:00:00Z');
    expect(d).toMatchObject({ status: 'INACTIVE', registryState: 'REGISTRY', membershipExpiresAt: '2025-02-01T10:00:00.000Z' });
    expect(j).toMatchObject({ status: 'LIMITED', registryState: 'REGISTRY' });
    const corrected = project(
      [s.next('person.membership_status_changed', '2025-03-01T10:00:00Z', { role: 'judge', status: 'ACTIVE' })],
      state,
    );
    const both = docsAt(corrected, '2025-03-02T00:00:00Z');
    expect(both.judge?.status).toBe('ACTIVE');
    expect(both.dancer?.status).toBe('INACTIVE');
  });

  it('keeps a correction made after the term ended', () => {
    const corrected = project(
      [s.next('person.membership_status_changed', '2025-03-01T10:00:00Z', { role: 'dancer', status: 'LIMITED' })],
      state,
    );
    expect(dancerAt(corrected, '2025-04-01T00:00:00Z').status).toBe('LIMITED');
  });
});

describe('rule 6: exceptions', () => {
  const { s, events } = dancer('2025-03-01');
  const archived = project(events); // archived at 2025-02-28T22:00Z once advanced

  it('REGISTRY over an archived dancer: listed with archivedAt null until `until`, then its own state again', () => {
    const held = project(
      [
        s.next('person.exception_placed', '2025-04-01T10:00:00Z', {
          role: 'dancer',
          registryState: 'REGISTRY',
          until: '2025-05-01T00:00:00Z',
        }),
      ],
      archived,
    );
    const during = dancerAt(held, '2025-04-15T00:00:00Z');
    expect(during).toMatchObject({ registryState: 'REGISTRY', archivedAt: null, registryUntil: '2025-03-01' });
    expect(during.nextDueAt?.toISOString()).toBe('2025-05-01T00:00:00.000Z');
    expect(dancerAt(held, '2025-05-01T00:00:00Z')).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: '2025-02-28T22:00:00.000Z',
      registryUntil: null,
    });
  });

  it('ARCHIVE over a listed dancer: archived from the placement, back when lifted', () => {
    const { s: t, events: e } = dancer('2026-01-01');
    const held = project([
      ...e,
      t.next('person.exception_placed', '2025-04-01T10:00:00Z', {
        role: 'dancer',
        registryState: 'ARCHIVE',
        until: '2025-06-01T00:00:00Z',
      }),
    ]);
    expect(dancerAt(held, '2025-04-02T00:00:00Z')).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: '2025-04-01T10:00:00.000Z',
      registryUntil: null,
    });
    const lifted = project([t.next('person.exception_lifted', '2025-04-10T10:00:00Z', { role: 'dancer' })], held);
    expect(dancerAt(lifted, '2025-04-11T00:00:00Z')).toMatchObject({
      registryState: 'REGISTRY',
      archivedAt: null,
      registryUntil: '2026-01-01',
    });
    expect(dancerAt(held, '2025-06-01T00:00:00Z')).toMatchObject({ registryState: 'REGISTRY', archivedAt: null });
  });

  it('defers rule 1 while an exception holds the role, then archives at its end', () => {
    const { s: t, events: e } = dancer('2025-03-01');
    const held = project([
      ...e,
      t.next('person.exception_placed', '2025-02-20T10:00:00Z', {
        role: 'dancer',
        registryState: 'REGISTRY',
        until: '2025-03-10T00:00:00Z',
      }),
    ]);
    expect(dancerAt(held, '2025-03-05T00:00:00Z')).toMatchObject({ registryState: 'REGISTRY', archivedAt: null });
    expect(dancerAt(held, '2025-03-10T00:00:00Z')).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2025-03-10T00:00:00.000Z' });
    const lifted = project([t.next('person.exception_lifted', '2025-03-05T12:00:00Z', { role: 'dancer' })], held);
    expect(dancerAt(lifted, '2025-03-06T00:00:00Z')).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2025-03-05T12:00:00.000Z' });
  });

  it('applies to the named role only', () => {
    const { s: t, events: e } = dancer('2026-01-01');
    const held = project([
      ...e,
      t.next('person.role_granted', '2024-01-02T10:00:00Z', judgeGrant('2026-01-01')),
      t.next('person.exception_placed', '2025-04-01T10:00:00Z', { role: 'judge', registryState: 'ARCHIVE', until: '2025-06-01T00:00:00Z' }),
    ]);
    const { dancer: d, judge: j } = docsAt(held, '2025-04-02T00:00:00Z');
    expect(d?.registryState).toBe('REGISTRY');
    expect(j).toMatchObject({ registryState: 'ARCHIVE', archivedAt: '2025-04-01T10:00:00.000Z', registryUntil: null });
  });
});

describe('idempotence and versions', () => {
  const { s, events } = dancer('2026-01-01');
  const state = project(events);
  const paid = s.next('person.membership_paid', '2024-02-01T10:00:00Z', {
    role: 'dancer',
    status: 'ACTIVE',
    membershipExpiresAt: '2025-02-01T10:00:00Z',
    registryUntil: '2026-01-01',
  });
  const once = evolvePerson(state, paid, riga);

  it('applies an event once', () => {
    expect(once.outcome).toBe('applied');
    const twice = evolvePerson(once.state, paid, riga);
    expect(twice).toEqual({ state: once.state, outcome: 'duplicate' });
  });

  it('treats a lower version with a new id as a duplicate', () => {
    const older = evolvePerson(once.state, { ...events[1], eventId: uuid() } as PersonEvent, riga);
    expect(older.outcome).toBe('duplicate');
    expect(older.state).toBe(once.state);
  });

  it('reports a gap and applies the event', () => {
    const gapped = evolvePerson(
      once.state,
      { ...s.next('person.role_archived', '2024-03-01T10:00:00Z', { role: 'dancer' }), aggregateVersion: 7 },
      riga,
    );
    expect(gapped.outcome).toBe('gap');
    expect(gapped.state.gaps).toBe(1);
    expect(dancerAt(gapped.state, '2024-03-02T00:00:00Z').registryState).toBe('ARCHIVE');
  });

  it('ignores events about a role the person does not hold, advancing the version', () => {
    const event = {
      ...s.next('person.role_archived', '2024-03-01T10:00:00Z', { role: 'judge' }),
      aggregateVersion: once.state.version + 1,
    };
    const result = evolvePerson(once.state, event, riga);
    expect(result.outcome).toBe('ignored');
    expect(result.state.version).toBe(once.state.version + 1);
  });
});
