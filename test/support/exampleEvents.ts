import { deepFreeze } from './deepFreeze.ts';
import type { CompetitionDetails, DomainEvent, EventData, EventOfType, EventType } from '../../services/events/types.ts';
import { LV, noLocation, person } from '../api/eventBuilders.ts';
import { eventStream, uuidCounter, type EventStream } from './testEvents.ts';

// One coherent history (ids agree across aggregates, versions run 1, 2, 3... per aggregate,
// occurredAt rises through the list) so tests can project it in order as well as pick events.

export const exampleIds = {
  club: '0f248973-f25e-4561-972e-390f92a2d193',
  clubMainLocation: '044ef88c-2f2d-4554-83fb-97a98be233a0',
  clubBranchLocation: '8c426aab-b8c8-4d59-832c-b876644b2fc4',
  dancer: 'c503f9d9-f86b-461a-9366-45f0e6ae8ad3',
  coach: '4f06a206-85ce-4b73-b7fd-aa28a4e035c8',
  judge: '154a75f4-46bd-4ebe-9124-b324f3dde3ce',
  competition: '1327c119-2055-4d96-a203-2827e694d29f',
  categoryLatin: '61ceff69-d3f2-4342-af15-8a1813baf251',
  categoryStandard: 'a712fdae-137d-4c3d-b143-7808f76606f2',
  entryFirst: '90ea07a2-6c48-43bc-b033-9c863ce0b147',
  entrySecond: '2daa982a-74a2-495d-a639-69d5d2b1983e',
  draftCompetition: '96e5980b-8859-40c1-860e-a7540b0d64dc',
} as const;

// Event ids of their own, so the examples' ids do not depend on what else a test file built.
const exampleEventIds = uuidCounter('3b1e0c52-7a4d-4f0e-9c1a-');
const streams = new Map<string, EventStream>();

const event = <T extends EventType>(type: T, aggregateId: string, occurredAt: string, data: EventData<T>): EventOfType<T> => {
  const stream = streams.get(aggregateId) ?? eventStream(aggregateId, exampleEventIds);
  streams.set(aggregateId, stream);
  return stream.next(type, occurredAt, data);
};

const { club, dancer, coach, judge, competition, draftCompetition } = exampleIds;

const rigaOpen: CompetitionDetails = {
  slug: 'riga-open-2025',
  name: 'Riga Open 2025',
  shortName: 'Riga Open',
  descriptionFormatted: 'Two days of **Latin** and **Standard** in the Arena Riga.\n\n- Saturday: juniors\n- Sunday: adults',
  type: { code: 'international_open', label: 'International Open' },
  organizer: { name: 'DSC Aurora', shortName: 'Aurora', country: 'Latvia', countryCode: 'LV', website: 'https://aurora.example.lv' },
  dates: { start: '2025-06-14', end: '2025-06-15' },
  location: {
    country: 'Latvia',
    countryId: 117,
    countryCode: 'LV',
    city: 'Rīga',
    formattedAddress: 'Skanstes iela 21, Centra rajons, Rīga, LV-1013, Latvia',
    placeId: 'ChIJd8BlQ2BZwokRAFUEcm_qrcA',
    venueName: 'Arena Riga',
    venueAddress: 'Skanstes iela 21',
  },
  registration: { status: 'open', opensAt: '2025-04-01', deadline: '2025-06-07', maxEntries: 400, externalUrl: null },
  banner: {
    horizontal: { '640': 'https://cdn.federation.example/b/riga-h-640.webp', '1280': 'https://cdn.federation.example/b/riga-h-1280.webp' },
    vertical: { default: 'https://cdn.federation.example/b/riga-v.jpg' },
  },
  media: { entryForm: 'https://cdn.federation.example/f/riga-open-2025-entry.pdf' },
  resultsUrl: null,
};

const history: DomainEvent[] = [
  event('club.registered', club, '2024-01-10T09:00:00Z', {
    name: 'DSC Aurora',
    logo: 'https://cdn.federation.example/logos/aurora.png',
    foundedOn: '1998',
    approvedAt: '2024-01-10T08:55:00Z',
    contacts: { phone: '+371 2000 0000', email: 'info@aurora.example.lv', website: null, instagram: null, facebook: null },
    locations: [
      { id: exampleIds.clubMainLocation, type: 'main', address: 'Brīvības iela 100, Rīga', city: 'Rīga', country: LV, placeId: null },
    ],
  }),
  event('person.registered', coach, '2024-01-12T10:00:00+02:00', {
    ...person('Jānis', 'Ozols', LV, 'MALE'),
    nameEn: 'Janis',
    surnameEn: 'Ozols',
  }),
  event('person.role_granted', coach, '2024-01-12T10:05:00+02:00', {
    role: 'coach',
    approvedAt: '2024-01-12T10:05:00+02:00',
    registryUntil: null,
    highestClass: 8,
  }),
  event('person.club_joined', coach, '2024-01-12T10:10:00+02:00', { role: 'coach', clubId: club, since: '2024-01-12' }),
  event('person.registered', dancer, '2024-02-01T12:00:00Z', { ...person('Anna', 'Bērziņa', LV), nameEn: 'Anna', surnameEn: 'Berzina' }),
  event('person.role_granted', dancer, '2024-02-01T12:01:00Z', {
    role: 'dancer',
    approvedAt: '2024-02-01T12:01:00Z',
    registryUntil: '2024-03-01',
    danceClass: 4,
    hasPartner: false,
  }),
  event('person.membership_paid', dancer, '2024-02-02T08:30:00Z', {
    role: 'dancer',
    status: 'ACTIVE',
    membershipExpiresAt: '2025-02-02T00:00:00Z',
    registryUntil: '2025-05-02',
  }),
  event('person.club_joined', dancer, '2024-02-02T09:00:00Z', { role: 'dancer', clubId: club, since: '2024-02-02' }),
  event('person.coach_assigned', dancer, '2024-02-02T09:05:00Z', { coachId: coach, since: '2024-02-02' }),
  event('person.registered', judge, '2024-02-10T15:00:00+01:00', {
    ...person('Marta', 'Kalniņa', LV),
    nameEn: 'Marta',
    surnameEn: 'Kalnina',
    avatar: 'https://cdn.federation.example/avatars/kalnina.jpg',
  }),
  event('person.role_granted', judge, '2024-02-10T15:01:00+01:00', {
    role: 'judge',
    approvedAt: '2024-02-10T15:01:00+01:00',
    registryUntil: '2024-03-10',
    judgeCategory: 2,
    positions: ['judge', 'headJudge'],
  }),
  event('person.membership_paid', judge, '2024-02-11T10:00:00+01:00', {
    role: 'judge',
    status: 'LIMITED',
    membershipExpiresAt: '2025-02-11T00:00:00+01:00',
    registryUntil: '2025-05-11',
  }),
  event('club.details_changed', club, '2024-03-01T11:00:00Z', {
    contacts: {
      phone: '+371 2000 0000',
      email: 'info@aurora.example.lv',
      website: 'https://aurora.example.lv',
      instagram: '@dsc.aurora',
      facebook: null,
    },
  }),
  event('club.location_added', club, '2024-03-05T11:00:00Z', {
    location: {
      id: exampleIds.clubBranchLocation,
      type: 'branch',
      address: 'Rīgas iela 5, Jūrmala (2nd floor)',
      city: 'Jūrmala',
      country: LV,
      placeId: 'ChIJ0a3cJ4TM7kYRvq0aU7ZpVxk',
    },
  }),
  event('club.location_changed', club, '2024-03-06T11:00:00Z', {
    locationId: exampleIds.clubMainLocation,
    changes: { placeId: 'ChIJ4zGFAZpYwokRGUGph3Mf37k' },
  }),
  event('competition.drafted', competition, '2025-03-01T10:00:00Z', rigaOpen),
  event('competition.category_added', competition, '2025-03-01T10:05:00Z', {
    category: {
      id: exampleIds.categoryLatin,
      name: 'Youth Latin',
      entryType: 'couple',
      style: 'latin',
      ageGroup: 'Youth',
      birthYearRange: '2007-2009',
      participantDivision: null,
      level: 6,
      dances: ['S', 'ChCh', 'R', 'P', 'J'],
      displayOrder: 1,
    },
  }),
  event('competition.category_added', competition, '2025-03-01T10:06:00Z', {
    category: {
      id: exampleIds.categoryStandard,
      name: 'Adult Standard',
      entryType: 'couple',
      style: 'standard',
      ageGroup: 'Adult',
      birthYearRange: null,
      participantDivision: 'Open',
      level: null,
      dances: ['W', 'T', 'VW', 'F', 'Q'],
      displayOrder: 2,
    },
  }),
  event('competition.published', competition, '2025-03-02T08:00:00Z', {}),
  event('competition.details_changed', competition, '2025-03-10T14:00:00Z', {
    name: 'Riga Open 2025 (WDSF)',
    registration: { ...rigaOpen.registration, maxEntries: 450 },
  }),
  event('competition.category_changed', competition, '2025-03-11T09:00:00Z', {
    categoryId: exampleIds.categoryLatin,
    changes: { level: 7, displayOrder: 3 },
  }),
  event('competition.entry_submitted', competition, '2025-04-02T18:20:00+03:00', {
    entryId: exampleIds.entryFirst,
    categoryIds: [exampleIds.categoryLatin, exampleIds.categoryStandard],
  }),
  event('competition.entry_submitted', competition, '2025-04-03T09:00:00+03:00', {
    entryId: exampleIds.entrySecond,
    categoryIds: [exampleIds.categoryLatin],
  }),
  event('competition.entry_changed', competition, '2025-04-05T12:00:00+03:00', {
    entryId: exampleIds.entryFirst,
    categoryIds: [exampleIds.categoryStandard],
  }),
  event('competition.entry_withdrawn', competition, '2025-04-06T12:00:00+03:00', { entryId: exampleIds.entrySecond }),
  event('person.details_changed', dancer, '2025-04-10T08:00:00Z', { avatar: 'https://cdn.federation.example/avatars/berzina.jpg' }),
  event('person.role_details_changed', dancer, '2025-04-10T08:05:00Z', { role: 'dancer', changes: { danceClass: 5, hasPartner: true } }),
  event('person.membership_status_changed', judge, '2025-04-11T08:00:00Z', { role: 'judge', status: 'ACTIVE' }),
  event('competition.category_removed', competition, '2025-05-01T10:00:00Z', { categoryId: exampleIds.categoryLatin }),
  event('competition.drafted', draftCompetition, '2025-05-02T10:00:00Z', {
    ...rigaOpen,
    slug: 'aurora-cup-2025',
    name: 'Aurora Cup 2025',
    shortName: 'Aurora Cup',
    descriptionFormatted: null,
    type: null,
    organizer: null,
    dates: { start: '2025-10-04', end: '2025-10-04' },
    location: noLocation,
    registration: {
      status: 'closed',
      opensAt: null,
      deadline: null,
      maxEntries: null,
      externalUrl: 'https://entries.example.org/aurora-cup',
    },
    banner: { horizontal: null, vertical: null },
    media: { entryForm: null },
  }),
  event('competition.published', draftCompetition, '2025-05-03T10:00:00Z', {}),
  event('competition.unpublished', draftCompetition, '2025-05-04T10:00:00Z', {}),
  event('competition.deleted', draftCompetition, '2025-05-05T10:00:00Z', {}),
  event('person.exception_placed', dancer, '2025-05-20T09:00:00Z', {
    role: 'dancer',
    registryState: 'REGISTRY',
    until: '2025-06-30T00:00:00Z',
  }),
  event('person.exception_lifted', dancer, '2025-06-01T09:00:00Z', { role: 'dancer' }),
  event('competition.completed', competition, '2025-06-16T09:00:00+03:00', {}),
  event('person.role_archived', dancer, '2025-07-01T09:00:00Z', { role: 'dancer' }),
  event('person.role_reinstated', dancer, '2025-07-15T09:00:00Z', { role: 'dancer', registryUntil: '2026-10-15' }),
  event('person.club_left', dancer, '2025-08-01T09:00:00Z', { role: 'dancer', clubId: club }),
  event('person.coach_unassigned', dancer, '2025-08-01T09:01:00Z', { coachId: coach }),
  event('club.main_location_set', club, '2025-08-10T10:00:00Z', { locationId: exampleIds.clubBranchLocation }),
  event('club.location_removed', club, '2025-08-10T10:01:00Z', { locationId: exampleIds.clubMainLocation }),
  event('club.exception_placed', club, '2025-09-01T10:00:00Z', { registryState: 'ARCHIVE', until: '2025-09-30T00:00:00Z' }),
  event('club.exception_lifted', club, '2025-09-05T10:00:00Z', {}),
  event('club.archived', club, '2025-10-01T10:00:00Z', {}),
  event('club.reinstated', club, '2025-10-02T10:00:00Z', {}),
];

/**
 * Frozen, so a test that edits one in place fails loudly instead of breaking the next test. A
 * frozen copy: the history shares builder constants (LV, noLocation) that other tests extend.
 */
export const exampleEvents: DomainEvent[] = deepFreeze(structuredClone(history));

/** A mutable copy of the first example of a type, for tests that need one event to alter. */
export const exampleEvent = <T extends EventType>(type: T): EventOfType<T> => {
  const found = exampleEvents.find((e): e is EventOfType<T> => e.type === type);
  if (found === undefined) throw new Error(`no example of ${type}`);
  return structuredClone(found);
};
