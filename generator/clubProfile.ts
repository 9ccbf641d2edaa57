import type { ClubContacts, ClubLocation } from '../services/events/index.ts';
import { ADDRESS_DETAILS, NAME_WORDS, PLACES, type Place } from './places.ts';
import { foldToAscii } from './names.ts';
import type { Random } from './random.ts';
import { yearOf } from './time.ts';

// How clubs call themselves in each country (Latin script: the registry keeps club names so).
const CLUB_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  LV: ['Deju klubs', 'DK', 'Sporta deju klubs'],
  LT: ['Šokių klubas', 'ŠK', 'Sportinių šokių klubas'],
  PL: ['Klub Tańca Sportowego', 'KTS', 'Studio Tańca'],
  CZ: ['Taneční klub', 'TK', 'Taneční studio'],
  DE: ['Tanzsportclub', 'TSC', 'Tanzsportgemeinschaft', 'TSG'],
  UA: ['Dance Club', 'TSK', 'Sport Dance Club'],
  EE: ['Tantsuklubi', 'TK', 'Tantsukool'],
};

export function placeAt(index: number): Place {
  const place = PLACES[index];
  if (place === undefined) throw new Error(`no place ${index}`);
  return place;
}

export function clubName(random: Random, place: Place, city: string): string {
  const prefix = random.pick(CLUB_PREFIXES[place.country.code] ?? ['Dance Club']);
  const word = random.pick(NAME_WORDS);
  // Club names are Latin script: a Cyrillic city is left out rather than transliterated.
  const withCity = random.chance(0.4) && /^[\p{Script=Latin}\s-]+$/u.test(city);
  return withCity ? `${prefix} ${word} ${city}` : `${prefix} ${word}`;
}

/** A street address with an optional bracketed detail, as the geocoder and the club wrote it. */
export function streetAddress(random: Random, place: Place, city: string): string {
  const street = `${random.pick(place.streets)} ${random.int(1, 180)}`;
  const base = `${street}, ${city}, ${place.postalCode(random.int(0, 99_999))}, ${place.country.name}`;
  return random.chance(0.2) ? `${base} (${random.pick(ADDRESS_DETAILS)})` : base;
}

export function placeId(random: Random): string {
  return `ChIJ${random.token(23)}`;
}

export function clubLocation(random: Random, id: string, type: 'main' | 'branch', placeIndex: number, city: string): ClubLocation {
  const place = placeAt(placeIndex);
  const geocoded = random.chance(0.92);
  return {
    id,
    type,
    address: random.chance(0.97) ? streetAddress(random, place, city) : null,
    city: geocoded || random.chance(0.5) ? city : null,
    country: random.chance(0.98) ? place.country : null,
    placeId: geocoded ? placeId(random) : null,
  };
}

/** Where a branch opens: same city, another city of the country, or abroad. */
export function branchPlace(random: Random, placeIndex: number, city: string): { placeIndex: number; city: string } {
  const roll = random.float();
  if (roll < 0.5) return { placeIndex, city };
  if (roll < 0.85) return { placeIndex, city: random.pick(placeAt(placeIndex).cities) };
  const abroad = random.int(0, PLACES.length - 1);
  return { placeIndex: abroad, city: random.pick(placeAt(abroad).cities) };
}

export function clubContacts(random: Random, place: Place, name: string): ClubContacts {
  const handle = foldToAscii(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const website = random.chance(0.6) ? `https://www.${handle}.${place.webDomain}` : null;
  return {
    phone: random.chance(0.85) ? `${place.phonePrefix}${random.int(1_000_000, 9_999_999)}` : null,
    email: random.chance(0.8) ? `info@${handle}.${place.webDomain}` : null,
    website,
    instagram: random.chance(0.5) ? `https://instagram.com/${handle}` : null,
    facebook: random.chance(0.45) ? `https://facebook.com/${handle}` : null,
  };
}

export function clubLogo(random: Random): string | null {
  return random.chance(0.7) ? `https://media.dancefed.example/clubs/${random.token(16)}/logo.png` : null;
}

export function foundedOn(random: Random, before: number): string | null {
  const roll = random.float();
  const year = yearOf(before) - random.int(0, 40);
  if (roll < 0.15) return null;
  // The write side passes it through verbatim: some clubs give a year, some a full date.
  if (roll < 0.6) return String(year);
  return `${year}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;
}
