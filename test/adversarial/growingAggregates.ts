import fc from 'fast-check';
import type { DomainEvent } from '../../services/events/index.ts';
import { category, competitionDetails, LV } from '../api/eventBuilders.ts';
import { eventStream, numberedUuid, uuidCounter } from '../support/testEvents.ts';
import { NEAR_LIMIT_BYTES } from './hostileEvents.ts';
import { scriptText } from './hostileStrings.ts';

// Aggregates grown by size (issue 37's hostile class): a competition of thousands of entries and
// hundreds of categories, a club of thousands of locations or exceptions, a person of thousands
// of link changes or exceptions, names as long as one event can carry in several scripts, events
// of many keys, and storms of invalid messages on one key. Each family is one function of its
// size, so the same input serves the real processes (growingAggregates.int) and the cost bound
// (hostileCost.unit: n against 2n).
//
// Sizes are drawn as integers between explicit bounds: fast-check's default `size` draws small
// values whatever `maxLength` says (its Markdown fuzz stays under a dozen characters).

const HOUR_MS = 3_600_000;
const START = Date.UTC(2024, 0, 1);
/** The i-th instant of a history: one an hour from 2024 on, before every test's now (2026-11-23). */
export const at = (i: number): string => new Date(START + i * HOUR_MS).toISOString();

/** Long text in one script: `length` UTF-16 units, repeatable from `seed`. */
export const SCRIPTS = {
  latin: (length: number, seed: number): string => scriptText(length, 0x00c0, 0x17f - 0xc0, seed),
  cjk: (length: number, seed: number): string => scriptText(length, 0x4e00, 20_000, seed),
  arabic: (length: number, seed: number): string => scriptText(length, 0x0621, 0x3a, seed),
  /** A base letter and a combining mark, in turns (each mark composes or stacks under normalization). */
  combining: (length: number, seed: number): string =>
    [...scriptText(Math.ceil(length / 2), 0x0300, 0x70, seed)]
      .map((mark, i) => `${'aeiou'[i % 5]}${mark}`)
      .join('')
      .slice(0, length),
  /** U+FDFA: one character that compatibility normalization spells as eighteen. */
  fdfa: (length: number): string => '\ufdfa'.repeat(length),
} as const;
export type Script = keyof typeof SCRIPTS;
export const SCRIPT_NAMES = Object.keys(SCRIPTS) as Script[];

/** UTF-16 units of the longest name one event carries in `script`: its JSON stays under the broker's limit with room for the rest. */
export function longestName(script: Script): number {
  const bytesPerUnit = Buffer.byteLength(SCRIPTS[script](1_000, 1)) / 1_000;
  return Math.floor((NEAR_LIMIT_BYTES - 20_000) / bytesPerUnit);
}

/** Ids of one family's aggregates and records, unique across families and runs (`family` is 1 hex digit, `run` up to 7). */
function ids(family: number, run: number): () => string {
  return uuidCounter(`${family.toString(16)}${run.toString(16).padStart(7, '0')}-0000-4000-8000-`);
}

const eventIds = uuidCounter('e7e7e7e7-0000-4000-8000-');

export interface Grown {
  /** The family and its size, for messages. */
  label: string;
  aggregateId: string;
  events: DomainEvent[];
}

/** A published competition of `categories` categories and `entries` entries, each naming 1 to 5 of them; a third changed, a sixth withdrawn. */
export function competitionOfEntries(run: number, entries: number, categories: number): Grown {
  const id = ids(1, run);
  const s = eventStream(id(), eventIds);
  const categoryIds = Array.from({ length: categories }, () => id());
  const events: DomainEvent[] = [
    s.next('competition.drafted', at(0), competitionDetails(run, { slug: `grown-${run}`, name: `Grown competition ${run}` })),
    s.next('competition.published', at(1), {}),
    ...categoryIds.map((cid, i) =>
      s.next('competition.category_added', at(2), { category: category(i + 1, { id: cid, name: `Category ${i}` }) }),
    ),
  ];
  const named = (i: number, k: number): string[] => [
    ...new Set(Array.from({ length: k }, (_, j) => categoryIds[(i * 7 + j * 31) % categories]!)),
  ];
  const entryIds: string[] = [];
  for (let i = 0; i < entries; i++) {
    const entryId = numberedUuid('e0000000-0000-4000-8000-', i + 1);
    entryIds.push(entryId);
    events.push(s.next('competition.entry_submitted', at(3 + i), { entryId, categoryIds: named(i, 1 + (i % 5)) }));
    if (i % 3 === 2)
      events.push(s.next('competition.entry_changed', at(3 + i), { entryId: entryIds[i - 1]!, categoryIds: named(i + 1, 2) }));
    if (i % 6 === 5) events.push(s.next('competition.entry_withdrawn', at(3 + i), { entryId: entryIds[i - 4]! }));
  }
  return { label: `competition of ${entries} entries and ${categories} categories`, aggregateId: s.aggregateId, events };
}

/** A published competition to which `categories` categories are added one by one, each named by one entry. */
export function competitionOfCategories(run: number, categories: number): Grown {
  const id = ids(2, run);
  const s = eventStream(id(), eventIds);
  const events: DomainEvent[] = [
    s.next('competition.drafted', at(0), competitionDetails(run, { slug: `categories-${run}`, name: `Many categories ${run}` })),
    s.next('competition.published', at(1), {}),
  ];
  for (let i = 0; i < categories; i++) {
    const cid = id();
    events.push(s.next('competition.category_added', at(2 + i), { category: category(i + 1, { id: cid, name: `Category ${i}` }) }));
    events.push(s.next('competition.entry_submitted', at(2 + i), { entryId: id(), categoryIds: [cid] }));
  }
  return { label: `competition of ${categories} categories`, aggregateId: s.aggregateId, events };
}

/** A registered club to which `locations` branches are added one by one; every tenth changed. */
export function clubOfLocations(run: number, locations: number): Grown {
  const id = ids(3, run);
  const s = eventStream(id(), eventIds);
  const events: DomainEvent[] = [s.next('club.registered', at(0), clubRegistration(`Club of locations ${run}`))];
  for (let i = 0; i < locations; i++) {
    const locationId = id();
    const address = `Brīvības iela ${i + 1}, Rīga`;
    events.push(
      s.next('club.location_added', at(1 + i), {
        location: { id: locationId, type: i === 0 ? 'main' : 'branch', address, city: 'Rīga', country: LV, placeId: null },
      }),
    );
    if (i % 10 === 9) events.push(s.next('club.location_changed', at(1 + i), { locationId, changes: { address: `${address} (moved)` } }));
  }
  return { label: `club of ${locations} locations`, aggregateId: s.aggregateId, events };
}

/** A dancer who joins and leaves one of `clubs` clubs `changes` times in all (every link is kept as history). */
export function personOfLinks(run: number, changes: number, clubs = 20): Grown {
  const id = ids(4, run);
  const s = eventStream(id(), eventIds);
  const clubIds = Array.from({ length: clubs }, () => id());
  const events: DomainEvent[] = dancer(s, `Links ${run}`);
  for (let i = 0; i < changes; i++) {
    const clubId = clubIds[Math.floor(i / 2) % clubs]!;
    events.push(
      i % 2 === 0
        ? s.next('person.club_joined', at(2 + i), { role: 'dancer', clubId, since: at(2 + i).slice(0, 10) })
        : s.next('person.club_left', at(2 + i), { role: 'dancer', clubId }),
    );
  }
  return { label: `person of ${changes} link changes`, aggregateId: s.aggregateId, events };
}

/** A dancer on whom `changes` exceptions are placed and lifted in turns. */
export function personOfExceptions(run: number, changes: number): Grown {
  const id = ids(5, run);
  const s = eventStream(id(), eventIds);
  const events: DomainEvent[] = dancer(s, `Exceptions ${run}`);
  for (let i = 0; i < changes; i++) {
    events.push(
      i % 2 === 0
        ? s.next('person.exception_placed', at(2 + i), {
            role: 'dancer',
            registryState: i % 4 === 0 ? 'ARCHIVE' : 'REGISTRY',
            until: at(2 + i + 48),
          })
        : s.next('person.exception_lifted', at(2 + i), { role: 'dancer' }),
    );
  }
  return { label: `person of ${changes} exception changes`, aggregateId: s.aggregateId, events };
}

/** A registered club on which `changes` exceptions are placed and lifted in turns. */
export function clubOfExceptions(run: number, changes: number): Grown {
  const id = ids(6, run);
  const s = eventStream(id(), eventIds);
  const events: DomainEvent[] = [s.next('club.registered', at(0), clubRegistration(`Club of exceptions ${run}`))];
  for (let i = 0; i < changes; i++) {
    events.push(
      i % 2 === 0
        ? s.next('club.exception_placed', at(1 + i), { registryState: i % 4 === 0 ? 'ARCHIVE' : 'REGISTRY', until: at(1 + i + 48) })
        : s.next('club.exception_lifted', at(1 + i), {}),
    );
  }
  return { label: `club of ${changes} exception changes`, aggregateId: s.aggregateId, events };
}

/** A competition, a dancer and a club whose names (and the competition's venue and city) are `length` units of `script`. */
export function longNames(run: number, script: Script, length: number): Grown[] {
  const id = ids(7, run);
  const text = SCRIPTS[script](length, run + 1);
  const competition = eventStream(id(), eventIds);
  const person = eventStream(id(), eventIds);
  const club = eventStream(id(), eventIds);
  const short = text.slice(0, 200);
  const label = `${script} names of ${length} units`;
  return [
    {
      label: `competition: ${label}`,
      aggregateId: competition.aggregateId,
      events: [
        competition.next('competition.drafted', at(0), competitionDetails(run, { slug: `long-${run}`, name: text, shortName: short })),
        competition.next('competition.published', at(1), {}),
        competition.next('competition.category_added', at(2), { category: category(1, { id: id(), name: text }) }),
      ],
    },
    {
      label: `person: ${label}`,
      aggregateId: person.aggregateId,
      events: [...dancer(person, text), person.next('person.details_changed', at(3), { surname: text })],
    },
    {
      label: `club: ${label}`,
      aggregateId: club.aggregateId,
      events: [club.next('club.registered', at(0), clubRegistration(text)), club.next('club.details_changed', at(1), { name: short })],
    },
  ];
}

/** A competition whose banner holds `keys` sizes (valid: a map of numeric keys), as many keys as one event carries. */
export function manyKeys(run: number, keys: number): Grown {
  const id = ids(8, run);
  const s = eventStream(id(), eventIds);
  const horizontal = Object.fromEntries(Array.from({ length: keys }, (_, i) => [String(i + 1), `b${i}`]));
  const details = competitionDetails(run, { slug: `keys-${run}`, name: `Many keys ${run}`, banner: { horizontal, vertical: null } });
  return {
    label: `competition of ${keys} banner keys`,
    aggregateId: s.aggregateId,
    events: [s.next('competition.drafted', at(0), details), s.next('competition.published', at(1), {})],
  };
}

/** A message of `keys` unexpected fields in `data` (invalid: every level is closed). */
export function manyUnexpectedKeys(run: number, keys: number): { key: string; value: string } {
  const s = eventStream(ids(9, run)(), eventIds);
  const event = s.next('competition.published', at(0), {}) as unknown as Record<string, unknown>;
  const data = Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));
  return { key: s.aggregateId, value: JSON.stringify({ ...event, data }) };
}

/** `n` small invalid messages of one key, each broken its own way: unparsable, of an unknown type, failing its schema. */
export function errorStorm(run: number, n: number): { key: string; messages: { value: string; reason: RegExp }[] } {
  const key = ids(10, run)();
  const messages = Array.from({ length: n }, (_, i) => {
    if (i % 3 === 0) return { value: `{"x":${i}`, reason: /^message value is not JSON: / };
    if (i % 3 === 1)
      return { value: JSON.stringify({ type: `storm.${i}`, aggregateId: key }), reason: /^missing required fields "eventId", / };
    return {
      value: JSON.stringify({ eventId: 'not-a-uuid', type: 'club.archived', aggregateId: key, data: {} }),
      reason: /; eventId: must be a uuid$/,
    };
  });
  return { key, messages };
}

function clubRegistration(name: string): Extract<DomainEvent, { type: 'club.registered' }>['data'] {
  return {
    name,
    logo: null,
    foundedOn: '2001-01-01',
    approvedAt: at(0),
    contacts: { phone: null, email: null, website: null, instagram: null, facebook: null },
    locations: [],
  };
}

function dancer(s: ReturnType<typeof eventStream>, name: string): DomainEvent[] {
  return [
    s.next('person.registered', at(0), { name, surname: 'Grown', nameEn: null, surnameEn: null, sex: 'FEMALE', avatar: null, country: LV }),
    s.next('person.role_granted', at(1), { role: 'dancer', approvedAt: at(1), registryUntil: null, danceClass: 3, hasPartner: false }),
  ];
}

/** The sizes a property draws: each between explicit bounds. */
export interface GrownSizes {
  entries: number;
  categories: number;
  locations: number;
  links: number;
  personExceptions: number;
  clubExceptions: number;
  keys: number;
  storm: number;
}

/** Draws every family's size between its bounds (each bound a real size: thousands, not a dozen). */
export function grownSizes(bounds: { [K in keyof GrownSizes]: [number, number] }): fc.Arbitrary<GrownSizes> {
  const between = ([min, max]: [number, number]): fc.Arbitrary<number> => fc.integer({ min, max });
  return fc.record({
    entries: between(bounds.entries),
    categories: between(bounds.categories),
    locations: between(bounds.locations),
    links: between(bounds.links),
    personExceptions: between(bounds.personExceptions),
    clubExceptions: between(bounds.clubExceptions),
    keys: between(bounds.keys),
    storm: between(bounds.storm),
  });
}
