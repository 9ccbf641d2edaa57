import type { EventData, Role, Sex } from '../services/events/index.ts';
import { NATIONS, type Nation } from './names.ts';
import { PLACES } from './places.ts';
import type { Random } from './random.ts';

/** Roles a person holds, in the order they are granted. Weights per 100 persons. */
const ROLE_SETS: readonly (readonly [readonly Role[], number])[] = [
  [['dancer'], 72],
  [['coach'], 6],
  [['judge'], 4],
  [['dancer', 'coach'], 8],
  [['coach', 'judge'], 5],
  [['dancer', 'judge'], 2],
  [['dancer', 'coach', 'judge'], 3],
];

export function roleSet(random: Random): readonly Role[] {
  return random.weighted(ROLE_SETS);
}

export function nationAt(index: number): Nation {
  const nation = NATIONS[index];
  if (nation === undefined) throw new Error(`no nation ${index}`);
  return nation;
}

/** Index into PLACES of a nation's country (NATIONS and PLACES list the same countries). */
export function placeIndexOf(nation: Nation): number {
  return Math.max(
    0,
    PLACES.findIndex((p) => p.country.code === nation.code),
  );
}

export function pickNation(random: Random): number {
  // The federation is Latvian: most of its members are too.
  return random.weighted(NATIONS.map((_, i) => [i, i === 0 ? 6 : 1] as const));
}

export function avatar(random: Random): string | null {
  return random.chance(0.6) ? `https://media.dancefed.example/avatars/${random.token(20)}.jpg` : null;
}

export function personDetails(random: Random, nationIndex: number, sex: Sex): EventData<'person.registered'> {
  const nation = nationAt(nationIndex);
  const given = random.pick(nation.given[sex]);
  const surname = random.pick(nation.surnames[sex]);
  // Older records from the previous registry lack the Latin spelling.
  const latinKnown = random.chance(0.95);
  return {
    name: given.native,
    surname: surname.native,
    nameEn: latinKnown ? given.latin : null,
    surnameEn: latinKnown ? surname.latin : null,
    sex,
    avatar: avatar(random),
    country: random.chance(0.98) ? (PLACES[placeIndexOf(nation)]?.country ?? null) : null,
  };
}

/** What a person corrects or changes about themselves over the years. */
export function personChanges(random: Random, nationIndex: number, sex: Sex): EventData<'person.details_changed'> {
  const nation = nationAt(nationIndex);
  return random.weighted<() => EventData<'person.details_changed'>>([
    [
      () => {
        const surname = random.pick(nation.surnames[sex]);
        return { surname: surname.native, surnameEn: surname.latin };
      },
      sex === 'FEMALE' ? 4 : 1,
    ],
    [() => ({ avatar: avatar(random) }), 4],
    [() => ({ nameEn: random.pick(nation.given[sex]).latin }), 1],
    [() => ({ country: random.pick(PLACES).country }), 1],
  ])();
}
