import { deepFreeze } from '../../test/support/deepFreeze.ts';
import { describe, expect, it } from 'vitest';
import { countryIdKey } from '../../services/readModel/index.ts';
import type { ClubLocation, EventData } from '../../services/events/index.ts';
import {
  clubReadDocument,
  deriveClubMembership,
  evolveClub,
  initialClubState,
  type ClubEvent,
  type ClubState,
  type MemberLinkFact,
} from './index.ts';
import { eventStream, uuid } from '../../test/support/testEvents.ts';

const config = { zone: 'UTC', bufferPeriodDays: 30 };
const latvia = { id: 117, name: 'Latvia', code: 'LV' };
const estonia = { id: 68, name: 'Estonia', code: 'EE' };
const location = (type: 'main' | 'branch', city: string, country = latvia): ClubLocation => ({
  id: uuid(),
  type,
  address: `${city} iela 1`,
  city,
  country,
  placeId: null,
});
const registered = (locations: ClubLocation[]): EventData<'club.registered'> => ({
  name: 'DSC Aurora',
  logo: 'https://cdn.example/logo.png',
  foundedOn: '1998',
  approvedAt: '2024-01-10T10:55:00+02:00',
  contacts: { phone: '+371 2000 0000', email: 'info@aurora.example', website: null, instagram: null, facebook: null },
  locations,
});

function project(events: ClubEvent[]): ClubState {
  let state = deepFreeze(initialClubState(events[0]?.aggregateId ?? uuid()));
  for (const event of events) state = deepFreeze(evolveClub(state, event).state);
  return state;
}

const memberFact = (clubId: string, memberRole: 'dancer' | 'coach', from: string, to: string | null = null): MemberLinkFact => {
  const memberId = uuid();
  return {
    _id: `club|${clubId}|${memberRole}|${memberId}`,
    kind: 'club',
    subjectId: clubId,
    memberId,
    memberRole,
    open: to === null,
    listed: [{ from, to }],
  };
};

function docAt(state: ClubState, now: string, facts: MemberLinkFact[] = [memberFact(state.id, 'dancer', '2024-01-01T00:00:00.000Z')]) {
  const d = clubReadDocument(state, deriveClubMembership(state, facts, new Date(now), config));
  if (!d) throw new Error('no club document');
  return d;
}

describe('club documents', () => {
  const main = location('main', 'Rīga');
  const branch1 = location('branch', 'Jūrmala');
  const branch2 = location('branch', 'Tallinn', estonia);
  const s = eventStream(uuid());
  const base: ClubEvent[] = [
    s.next('club.registered', '2024-01-10T09:00:00Z', registered([branch1, main])),
    s.next('club.location_added', '2024-02-01T09:00:00Z', { location: branch2 }),
  ];

  it('has no document before club.registered', () => {
    const state = initialClubState(uuid());
    expect(clubReadDocument(state, deriveClubMembership(state, [], new Date(), config))).toBeNull();
  });

  it('lists the main location first, then branches in the order added; address and country are the main one', () => {
    const d = docAt(project(base), '2024-03-01T00:00:00Z');
    expect(d.locations.map((l) => [l.type, l.city])).toEqual([
      ['main', 'Rīga'],
      ['branch', 'Jūrmala'],
      ['branch', 'Tallinn'],
    ]);
    expect(d).toMatchObject({
      name: 'DSC Aurora',
      address: 'Rīga iela 1',
      country: latvia,
      foundedOn: '1998',
      approvedAt: '2024-01-10T08:55:00.000Z',
      contacts: { phone: '+371 2000 0000', email: 'info@aurora.example', website: null, instagram: null, facebook: null },
      registryState: 'REGISTRY',
      registryUntil: null,
      dancersCount: 1,
      coachesCount: 0,
    });
    expect(d.locations[0]).toEqual({ type: 'main', address: 'Rīga iela 1', city: 'Rīga', country: latvia, placeId: null });
    expect(d.q).toMatchObject({
      cities: ['riga', 'jurmala', 'tallinn'],
      // Every location's country once (format 2: the id's key beside the folded name and code; no q.countryIds).
      country: ['latvia', 'lv', countryIdKey(117), 'estonia', 'ee', countryIdKey(68)],
      nameKey: 'dsc aurora',
      approvedRank: 0,
    });
    expect(d.q).not.toHaveProperty('countryIds');
    expect(d.s.tokens).toEqual(expect.arrayContaining(['aur', 'ror']));
  });

  it('swaps main and branch on main_location_set, the former main keeping its place among branches', () => {
    const state = project([...base, s.next('club.main_location_set', '2024-03-01T09:00:00Z', { locationId: branch2.id })]);
    const d = docAt(state, '2024-03-02T00:00:00Z');
    expect(d.locations.map((l) => [l.type, l.city])).toEqual([
      ['main', 'Tallinn'],
      ['branch', 'Jūrmala'],
      ['branch', 'Rīga'],
    ]);
    expect(d).toMatchObject({ address: 'Tallinn iela 1', country: estonia });
    expect(d.locations.filter((l) => l.type === 'main')).toHaveLength(1);
  });

  it('has no address after the main location is removed, until a new main is set', () => {
    const removed = project([...base, s.next('club.location_removed', '2024-03-01T09:00:00Z', { locationId: main.id })]);
    const d = docAt(removed, '2024-03-02T00:00:00Z');
    expect(d).toMatchObject({ address: null, country: null });
    expect(d.locations.map((l) => [l.type, l.city])).toEqual([
      ['branch', 'Jūrmala'],
      ['branch', 'Tallinn'],
    ]);
    const set = evolveClub(removed, s.next('club.main_location_set', '2024-03-03T09:00:00Z', { locationId: branch1.id }));
    expect(docAt(set.state, '2024-03-04T00:00:00Z')).toMatchObject({ address: 'Jūrmala iela 1' });
  });

  it('changes a location and the club details', () => {
    const state = project([
      ...base,
      s.next('club.location_changed', '2024-03-01T09:00:00Z', { locationId: main.id, changes: { city: 'Riga', placeId: 'p-1' } }),
      s.next('club.details_changed', '2024-03-02T09:00:00Z', {
        name: 'DSC Aurora Rīga',
        approvedAt: null,
        contacts: { phone: null, email: null, website: 'https://a.example', instagram: null, facebook: null },
      }),
    ]);
    const d = docAt(state, '2024-03-03T00:00:00Z');
    expect(d.locations[0]).toMatchObject({ city: 'Riga', placeId: 'p-1', address: 'Rīga iela 1' });
    expect(d).toMatchObject({ name: 'DSC Aurora Rīga', approvedAt: null, contacts: { website: 'https://a.example', phone: null } });
    expect(d.q).toMatchObject({ nameKey: 'dsc aurora riga', approvedRank: 1 });
  });

  it('adds a main location to a club that has none, and a second main demotes the first', () => {
    const t = eventStream(uuid());
    const first = location('main', 'Liepāja');
    const second = location('main', 'Cēsis');
    const state = project([
      t.next('club.registered', '2024-01-10T09:00:00Z', registered([])),
      t.next('club.location_added', '2024-01-11T09:00:00Z', { location: first }),
      t.next('club.location_added', '2024-01-12T09:00:00Z', { location: second }),
    ]);
    expect(docAt(state, '2024-01-13T00:00:00Z').locations.map((l) => [l.type, l.city])).toEqual([
      ['main', 'Cēsis'],
      ['branch', 'Liepāja'],
    ]);
    expect(docAt(project([t.next('club.registered', '2024-01-10T09:00:00Z', registered([]))]), '2024-01-11T00:00:00Z')).toMatchObject({
      locations: [],
      address: null,
      country: null,
    });
  });

  it('ignores changes to unknown locations and duplicates', () => {
    const state = project(base);
    expect(
      evolveClub(state, s.next('club.location_changed', '2024-03-01T09:00:00Z', { locationId: uuid(), changes: { city: 'X' } })).outcome,
    ).toBe('ignored');
    const again = evolveClub(state, base[1] as ClubEvent);
    expect(again).toEqual({ state, outcome: 'duplicate' });
  });

  it('counts current listed members by role from the facts', () => {
    const state = project(base);
    const facts = [
      memberFact(state.id, 'dancer', '2024-01-01T00:00:00.000Z'),
      memberFact(state.id, 'dancer', '2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z'),
      memberFact(state.id, 'coach', '2024-01-01T00:00:00.000Z'),
      { ...memberFact(uuid(), 'dancer', '2024-01-01T00:00:00.000Z') },
    ];
    expect(docAt(state, '2024-03-01T00:00:00Z', facts)).toMatchObject({ dancersCount: 1, coachesCount: 1, registryState: 'REGISTRY' });
  });
});
