import type { BannerSide, CompetitionDetails } from '../services/events/index.ts';
import { placeAt, placeId, streetAddress } from './clubProfile.ts';
import { foldToAscii } from './names.ts';
import { NAME_WORDS, PLACES } from './places.ts';
import type { Random } from './random.ts';
import { describeCompetition } from './description.ts';
import { DAY, calendarDate, yearOf } from './time.ts';
import type { World } from './world.ts';

export interface CompetitionType {
  readonly code: string;
  readonly label: string;
  /** Mean number of entries: a championship draws more couples than a club league round. */
  readonly entries: number;
  /** Full and poster name from the (Latin) city, a name word, the year and the country. */
  readonly name: (where: NameParts) => readonly [name: string, shortName: string];
}

export interface NameParts {
  readonly city: string;
  readonly word: string;
  readonly year: number;
  readonly country: { readonly name: string; readonly code: string };
}

export const COMPETITION_TYPES: readonly CompetitionType[] = [
  {
    code: 'national_championship',
    label: 'National Championship',
    entries: 110,
    name: ({ country, year }) => [`${country.name} Championship ${year}`, `${country.code} Championship`],
  },
  {
    code: 'international_open',
    label: 'International Open',
    entries: 150,
    name: ({ city, year }) => [`${city} International Open ${year}`, `${city} IO ${year}`],
  },
  { code: 'open', label: 'Open Competition', entries: 70, name: ({ city, year }) => [`${city} Open ${year}`, `${city} Open`] },
  { code: 'cup', label: 'Cup', entries: 60, name: ({ word, year }) => [`${word} Cup ${year}`, `${word} Cup`] },
  {
    code: 'ranking',
    label: 'Ranking Tournament',
    entries: 65,
    name: ({ city, year }) => [`Ranking Tournament ${city} ${year}`, `RT ${city}`],
  },
  { code: 'grand_prix', label: 'Grand Prix', entries: 120, name: ({ word, year }) => [`Grand Prix ${word} ${year}`, `GP ${word}`] },
  {
    code: 'festival',
    label: 'Dance Festival',
    entries: 80,
    name: ({ word, year }) => [`${word} Dance Festival ${year}`, `${word} Fest ${year}`],
  },
  { code: 'league', label: 'Club League', entries: 35, name: ({ city, year }) => [`Club League ${city} ${year}`, `League ${city}`] },
];

// Titles are in English; a city entered in Cyrillic is written in its Latin form there.
const LATIN_CITY: Readonly<Record<string, string>> = {
  Київ: 'Kyiv',
  Львів: 'Lviv',
  Харків: 'Kharkiv',
  Одеса: 'Odesa',
  Дніпро: 'Dnipro',
  Вінниця: 'Vinnytsia',
  Запоріжжя: 'Zaporizhzhia',
  Черкаси: 'Cherkasy',
};

export const latinCity = (city: string): string => LATIN_CITY[city] ?? city;

export function slugify(text: string): string {
  return foldToAscii(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A slug no other competition has taken (slugs identify competitions in URLs). */
export function uniqueSlug(world: World, name: string): string {
  const base = slugify(name) || 'competition';
  let slug = base;
  for (let n = 2; world.slugs.has(slug); n++) slug = `${base}-${n}`;
  world.slugs.add(slug);
  return slug;
}

const MEDIA = 'https://media.dancefed.example/competitions';

export function banner(random: Random, key: string, widths: readonly number[]): BannerSide {
  const roll = random.float();
  if (roll < 0.3) return null;
  // Banners uploaded before responsive sizing have a single `default` image.
  if (roll < 0.55) return { default: `${MEDIA}/${key}/banner.jpg` };
  return Object.fromEntries(widths.map((w) => [String(w), `${MEDIA}/${key}/banner-${w}.webp`]));
}

export function bannerPair(random: Random): CompetitionDetails['banner'] {
  const key = random.token(12);
  return { horizontal: banner(random, key, [640, 1280, 1920]), vertical: banner(random, `${key}v`, [360, 720]) };
}

/**
 * What a competition's later events need from its draft. The full details are not kept: a
 * description and banners per competition, alive for months, would dominate the memory.
 */
export interface CompetitionPlan {
  readonly slug: string;
  readonly name: string;
  readonly shortName: string;
  readonly city: string;
  readonly venueName: string;
  readonly registration: CompetitionDetails['registration'];
  readonly type: CompetitionType;
  readonly start: number;
  readonly end: number;
  readonly opensAt: number | null;
  readonly deadline: number | null;
  readonly placeIndex: number;
}

export function venue(random: Random, placeIndex: number, city: string): CompetitionDetails['location'] {
  const place = placeAt(placeIndex);
  const venueName = random.pick(place.venues).replace('%', random.chance(0.5) ? latinCity(city) : random.pick(NAME_WORDS));
  const address = streetAddress(random, place, city);
  const venueAddress = address.split(',')[0] ?? address;
  return {
    country: place.country.name,
    countryId: place.country.id,
    countryCode: place.country.code,
    city,
    formattedAddress: address,
    placeId: random.chance(0.9) ? placeId(random) : null,
    venueName,
    venueAddress,
  };
}

function organizer(random: Random, world: World, placeIndex: number): CompetitionDetails['organizer'] {
  const place = placeAt(placeIndex);
  if (random.chance(0.08)) return null;
  const clubs = world.clubsByPlace[placeIndex] ?? [];
  if (clubs.length > 0 && random.chance(0.7)) {
    const club = random.pick(clubs);
    const short = club.name
      .split(' ')
      .filter((w) => /^\p{Lu}/u.test(w))
      .map((w) => w[0])
      .join('');
    return {
      name: club.name,
      shortName: short.length > 1 ? short : null,
      country: place.country.name,
      countryCode: place.country.code,
      website: club.website,
    };
  }
  return {
    name: `${place.country.name} DanceSport Federation`,
    shortName: `${place.country.code}DSF`,
    country: place.country.name,
    countryCode: place.country.code,
    website: `https://www.dancesport.${place.webDomain}`,
  };
}

export function draftPlan(random: Random, world: World, draftedAt: number): { plan: CompetitionPlan; details: CompetitionDetails } {
  const placeIndex = random.weighted(PLACES.map((_, i) => [i, i === 0 ? 3 : 1] as const));
  const place = placeAt(placeIndex);
  const city = random.pick(place.cities);
  const type = random.pick(COMPETITION_TYPES);
  const start = Math.floor(draftedAt / DAY) * DAY + random.int(25, 330) * DAY;
  const end =
    start +
    random.weighted([
      [0, 45],
      [1, 45],
      [2, 10],
    ] as const) *
      DAY;
  const year = yearOf(start);
  const [name, short] = type.name({ city: latinCity(city), word: random.pick(NAME_WORDS), year, country: place.country });
  const opensAt = random.chance(0.25) ? null : start - random.int(45, 150) * DAY;
  const deadline = random.chance(0.1) ? null : start - random.int(2, 14) * DAY;
  const location = venue(random, placeIndex, city);
  const details: CompetitionDetails = {
    slug: uniqueSlug(world, name),
    name,
    shortName: short,
    descriptionFormatted: random.chance(0.1)
      ? null
      : describeCompetition({ random, name, city, venue: location.venueName ?? city, start, end, deadline }),
    type: random.chance(0.05) ? null : { code: type.code, label: type.label },
    organizer: organizer(random, world, placeIndex),
    dates: { start: calendarDate(start), end: calendarDate(end) },
    location,
    registration: {
      status: random.chance(0.92) ? 'open' : 'closed',
      opensAt: opensAt === null ? null : calendarDate(opensAt),
      deadline: deadline === null ? null : calendarDate(deadline),
      maxEntries: random.chance(0.4) ? null : random.int(8, 40) * 25,
      externalUrl: random.chance(0.15) ? `https://entries.${slugify(latinCity(city))}-dance.example/${year}` : null,
    },
    banner: bannerPair(random),
    media: { entryForm: random.chance(0.3) ? `${MEDIA}/${random.token(12)}/entry-form.pdf` : null },
    resultsUrl: null,
  };
  const plan: CompetitionPlan = {
    slug: details.slug,
    name,
    shortName: details.shortName,
    city,
    venueName: location.venueName ?? city,
    registration: details.registration,
    type,
    start,
    end,
    opensAt,
    deadline,
    placeIndex,
  };
  return { plan, details };
}
