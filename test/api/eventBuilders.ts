import type {
  CategoryDetails,
  ClubLocation,
  CompetitionDetails,
  Country,
  DomainEvent,
  EventData,
  EventType,
} from '../../services/events/index.ts';
import { eventStream, numberedUuid, type EventStream } from '../support/testEvents.ts';

// Small builders of valid event histories for the HTTP tests. Ids are chosen by the tests
// (so that `_id` order is known); versions and event ids come from eventStream.

export const LV: NonNullable<Country> = { id: 117, name: 'Latvia', code: 'LV' };
export const EE: NonNullable<Country> = { id: 68, name: 'Estonia', code: 'EE' };
export const LT: NonNullable<Country> = { id: 130, name: 'Lithuania', code: 'LT' };

const hex = (prefix: string, n: number): string => numberedUuid(`${prefix}0000000-0000-4000-8000-`, n);
export const competitionId = (n: number): string => hex('c', n);
export const personId = (n: number): string => hex('a', n);
export const clubId = (n: number): string => hex('b', n);
export const categoryId = (n: number): string => hex('e', n);

/** A history of one aggregate: `at(...)` appends events in order. */
export class History {
  readonly events: DomainEvent[] = [];
  readonly stream: EventStream;
  constructor(aggregateId: string) {
    this.stream = eventStream(aggregateId);
  }
  at<T extends EventType>(occurredAt: string, type: T, data: EventData<T>): this {
    this.events.push(this.stream.next(type, occurredAt, data));
    return this;
  }
}

/** A competition's location with nothing known. */
export const noLocation: CompetitionDetails['location'] = {
  country: null,
  countryId: null,
  countryCode: null,
  city: null,
  formattedAddress: null,
  placeId: null,
  venueName: null,
  venueAddress: null,
};

export function competitionDetails(n: number, overrides: Partial<CompetitionDetails> = {}): CompetitionDetails {
  return {
    slug: `competition-${n}`,
    name: `Competition ${n}`,
    shortName: `C${n}`,
    descriptionFormatted: null,
    type: { code: 'national', label: 'National' },
    organizer: null,
    dates: { start: '2025-09-01', end: '2025-09-01' },
    location: noLocation,
    registration: { status: 'open', opensAt: null, deadline: null, maxEntries: null, externalUrl: null },
    banner: { horizontal: null, vertical: null },
    media: { entryForm: null },
    resultsUrl: null,
    ...overrides,
  };
}

export const venue = (country: NonNullable<Country>, city: string, venueName: string | null = null): CompetitionDetails['location'] => ({
  ...noLocation,
  country: country.name,
  countryId: country.id,
  countryCode: country.code,
  city,
  venueName,
});

export function category(n: number, overrides: Partial<CategoryDetails> = {}): CategoryDetails {
  return {
    id: categoryId(n),
    name: `Category ${n}`,
    entryType: 'couple',
    style: 'latin',
    ageGroup: null,
    birthYearRange: null,
    participantDivision: null,
    level: null,
    dances: ['S', 'R'],
    displayOrder: n,
    ...overrides,
  };
}

export function clubLocation(n: number, type: 'main' | 'branch', city: string, country: Country): ClubLocation {
  return { id: hex('f', n), type, address: `${city} street ${n}`, city, country, placeId: null };
}

export const person = (name: string, surname: string, country: Country, sex: 'MALE' | 'FEMALE' = 'FEMALE') =>
  ({ name, surname, nameEn: null, surnameEn: null, sex, avatar: null, country }) as const;

/** A dancer role of class 3 with a partner, granted (and approved) at `approvedAt`. */
export const dancerGrant = (approvedAt: string, registryUntil: string): EventData<'person.role_granted'> => ({
  role: 'dancer',
  approvedAt,
  registryUntil,
  danceClass: 3,
  hasPartner: true,
});
