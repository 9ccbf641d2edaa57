import type { DomainEvent } from '../../services/events/index.ts';
import { EE, History, LT, LV, clubId, clubLocation, person, personId } from './eventBuilders.ts';

// The member registry of the HTTP tests, projected at NOW (buffer period 30 days).
export const NOW = new Date('2025-06-14T10:00:00Z');

export const clubs = { aurora: clubId(1), buffer: clubId(2), archived: clubId(3), tango: clubId(4) };
export const people = {
  ozols: personId(1), // coach of Anna, staff at Aurora
  zarins: personId(2), // coach of Marta, staff at Aurora
  bufferCoach: personId(3), // staff at Aurora, coaches nobody: buffer
  anna: personId(10), // dancer at Aurora, ACTIVE
  marta: personId(11), // dancer INACTIVE at Aurora and judge ACTIVE
  petrov: [personId(22), personId(20), personId(21)], // three equal names at Tango, created out of id order
  olga: personId(30), // dancer at Aurora, archived (links closed)
  judge: personId(40), // judge only, LIMITED
};

const contacts = { phone: '+371 2000 0000', email: 'info@aurora.example.lv', website: null, instagram: '@aurora', facebook: null };
const noContacts = { phone: null, email: null, website: null, instagram: null, facebook: null };

const aurora = new History(clubs.aurora)
  .at('2024-01-10T09:00:00Z', 'club.registered', {
    name: 'DSC Aurora',
    logo: 'https://cdn.example/aurora.png',
    foundedOn: '1998',
    approvedAt: '2024-01-10T08:55:00Z',
    contacts,
    locations: [clubLocation(1, 'main', 'Rīga', LV)],
  })
  .at('2024-01-11T09:00:00Z', 'club.location_added', { location: clubLocation(2, 'branch', 'Jūrmala', LV) })
  .at('2024-01-12T09:00:00Z', 'club.location_added', { location: clubLocation(3, 'branch', 'Tartu', EE) });
const bufferClub = new History(clubs.buffer).at('2025-06-01T09:00:00Z', 'club.registered', {
  name: 'Empty Hall',
  logo: null,
  foundedOn: null,
  approvedAt: '2025-06-01T09:00:00Z',
  contacts: noContacts,
  locations: [clubLocation(4, 'main', 'Riga', LV)],
});
const archivedClub = new History(clubs.archived)
  .at('2025-01-01T09:00:00Z', 'club.registered', {
    name: 'Old Stars',
    logo: null,
    foundedOn: '1975-05-01',
    approvedAt: null,
    contacts: noContacts,
    locations: [clubLocation(5, 'main', 'Tallinn', EE)],
  })
  .at('2025-01-05T09:00:00Z', 'club.archived', {});
const tango = new History(clubs.tango).at('2024-04-15T09:00:00Z', 'club.registered', {
  name: 'Tallinn Tango',
  logo: null,
  foundedOn: null,
  approvedAt: null,
  contacts: noContacts,
  locations: [clubLocation(6, 'main', 'Tallinn', EE)],
});

const coach = (id: string, name: string, surname: string, highestClass: number, approvedAt: string) =>
  new History(id)
    .at(approvedAt, 'person.registered', person(name, surname, LV, 'MALE'))
    .at(approvedAt, 'person.role_granted', { role: 'coach', approvedAt, registryUntil: null, highestClass })
    .at(approvedAt, 'person.club_joined', { role: 'coach', clubId: clubs.aurora, since: approvedAt.slice(0, 10) });

const ozols = coach(people.ozols, 'Jānis', 'Ozols', 8, '2024-01-12T10:00:00Z');
// Granted less than the buffer period (30 days) before Marta assigns him, so never archived.
const zarins = coach(people.zarins, 'Pēteris', 'Zariņš', 6, '2024-02-20T10:00:00Z');
const bufferCoach = coach(people.bufferCoach, 'Aigars', 'Bērziņš', 5, '2025-06-01T10:00:00Z');

const anna = new History(people.anna)
  .at('2024-02-01T12:00:00Z', 'person.registered', { ...person('Anna', 'Bērziņa', LV), nameEn: 'Anna', surnameEn: 'Berzina' })
  .at('2024-02-01T12:01:00Z', 'person.role_granted', {
    role: 'dancer',
    approvedAt: '2024-02-01T12:01:00Z',
    registryUntil: '2025-12-01',
    danceClass: 4,
    hasPartner: true,
  })
  .at('2024-02-02T08:00:00Z', 'person.membership_paid', {
    role: 'dancer',
    status: 'ACTIVE',
    membershipExpiresAt: '2026-02-02T00:00:00Z',
    registryUntil: '2026-05-02',
  })
  .at('2024-02-02T09:00:00Z', 'person.club_joined', { role: 'dancer', clubId: clubs.aurora, since: '2024-02-02' })
  .at('2024-02-02T09:05:00Z', 'person.coach_assigned', { coachId: people.ozols, since: '2024-02-02' });

const marta = new History(people.marta)
  .at('2024-03-01T12:00:00Z', 'person.registered', person('Marta', 'Kalniņa', LV))
  .at('2024-03-01T12:01:00Z', 'person.role_granted', {
    role: 'dancer',
    approvedAt: '2024-03-01T12:01:00Z',
    registryUntil: '2025-12-01',
    danceClass: 5,
    hasPartner: false,
  })
  .at('2024-03-01T12:02:00Z', 'person.membership_paid', {
    role: 'dancer',
    status: 'ACTIVE',
    membershipExpiresAt: '2025-03-01T00:00:00Z',
    registryUntil: '2025-12-01',
  })
  .at('2024-03-01T12:03:00Z', 'person.role_granted', {
    role: 'judge',
    approvedAt: '2024-03-01T12:03:00Z',
    registryUntil: '2026-04-01',
    judgeCategory: 2,
    positions: ['judge', 'headJudge'],
  })
  .at('2024-03-01T12:04:00Z', 'person.membership_paid', {
    role: 'judge',
    status: 'ACTIVE',
    membershipExpiresAt: '2026-01-01T00:00:00Z',
    registryUntil: '2026-04-01',
  })
  .at('2024-03-01T12:05:00Z', 'person.club_joined', { role: 'dancer', clubId: clubs.aurora, since: '2024-03-01' })
  .at('2024-03-01T12:06:00Z', 'person.coach_assigned', { coachId: people.zarins, since: '2024-03-01' });

const petrovs = people.petrov.map((id, i) =>
  new History(id)
    .at(`2024-05-0${i + 1}T10:00:00Z`, 'person.registered', {
      ...person('Иван', 'Петров', EE, 'MALE'),
      nameEn: 'Ivan',
      surnameEn: 'Petrov',
    })
    .at(`2024-05-0${i + 1}T10:01:00Z`, 'person.role_granted', {
      role: 'dancer',
      approvedAt: i === 2 ? '2024-05-10T10:00:00Z' : '2024-05-01T10:00:00Z',
      registryUntil: '2025-12-01',
      danceClass: 3,
      hasPartner: false,
    })
    .at(`2024-05-0${i + 1}T10:02:00Z`, 'person.club_joined', { role: 'dancer', clubId: clubs.tango, since: '2024-05-01' }),
);

const olga = new History(people.olga)
  .at('2024-04-01T12:00:00Z', 'person.registered', person('Olga', 'Arhīva', LV))
  .at('2024-04-01T12:01:00Z', 'person.role_granted', {
    role: 'dancer',
    approvedAt: '2024-04-01T12:01:00Z',
    registryUntil: '2025-12-01',
    danceClass: 4,
    hasPartner: false,
  })
  .at('2024-04-01T12:02:00Z', 'person.club_joined', { role: 'dancer', clubId: clubs.aurora, since: '2024-04-01' })
  .at('2024-04-01T12:03:00Z', 'person.coach_assigned', { coachId: people.ozols, since: '2024-04-01' })
  .at('2025-05-01T12:00:00Z', 'person.role_archived', { role: 'dancer' });

const judge = new History(people.judge)
  .at('2024-06-01T12:00:00Z', 'person.registered', person('Rūta', 'Teisėja', LT))
  .at('2024-06-01T12:01:00Z', 'person.role_granted', {
    role: 'judge',
    approvedAt: '2024-06-01T12:01:00Z',
    registryUntil: '2026-01-01',
    judgeCategory: 1,
    positions: ['sportsInspector'],
  })
  .at('2024-06-01T12:02:00Z', 'person.membership_paid', {
    role: 'judge',
    status: 'LIMITED',
    membershipExpiresAt: '2026-01-01T00:00:00Z',
    registryUntil: '2026-04-01',
  });

export const registryEvents: DomainEvent[] = [
  aurora,
  bufferClub,
  archivedClub,
  tango,
  ozols,
  zarins,
  bufferCoach,
  anna,
  marta,
  ...petrovs,
  olga,
  judge,
].flatMap((h) => h.events);
export const histories = { anna, marta, aurora };
