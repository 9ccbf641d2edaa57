import type { CategoryDetails } from '../services/events/index.ts';
import type { Random } from './random.ts';

type EntryType = CategoryDetails['entryType'];
type Style = CategoryDetails['style'];

const DANCES: Readonly<Record<'latin' | 'standard', readonly string[]>> = {
  latin: ['Samba', 'Cha-Cha-Cha', 'Rumba', 'Paso Doble', 'Jive'],
  standard: ['Waltz', 'Tango', 'Viennese Waltz', 'Slow Foxtrot', 'Quickstep'],
};

/** Age groups with the ages they admit: the birth-year range follows from the season's year. */
const AGE_GROUPS: readonly (readonly [string, number, number | null])[] = [
  ['Juvenile I', 7, 9],
  ['Juvenile II', 10, 11],
  ['Junior I', 12, 13],
  ['Junior II', 14, 15],
  ['Youth', 16, 18],
  ['U21', 16, 20],
  ['Adult', 19, null],
  ['Senior I', 35, null],
  ['Senior II', 45, null],
];

const DIVISIONS = ['Amateur', 'Professional', 'Pro-Am', 'Hobby'];

function dancesFor(random: Random, style: Style, level: number | null): string[] {
  if (style === 'latin' || style === 'standard') {
    // Lower classes dance three of the five dances.
    return level !== null && level <= 3 ? random.sample(DANCES[style], 3) : [...DANCES[style]];
  }
  if (style === 'combined') return [...DANCES.standard, ...DANCES.latin];
  return random.chance(0.5) ? [] : [random.pick(['Disco', 'Show Dance', 'Salsa', 'Hip-Hop'])];
}

export function newCategory(random: Random, id: string, displayOrder: number, year: number): CategoryDetails {
  const entryType = random.weighted<EntryType>([
    ['couple', 70],
    ['solo', 12],
    ['duo-synchro', 6],
    ['mix', 5],
    ['show', 7],
  ]);
  const style = random.weighted<Style>(
    entryType === 'couple'
      ? [
          ['latin', 45],
          ['standard', 40],
          ['combined', 10],
          [null, 5],
        ]
      : [
          ['none', 60],
          ['latin', 20],
          [null, 20],
        ],
  );
  const [ageGroup, minAge, maxAge] = random.pick(AGE_GROUPS);
  const level = random.chance(0.85) ? random.int(1, 10) : null;
  const birthYearRange = random.chance(0.8) ? (maxAge === null ? `${year - minAge} and older` : `${year - maxAge}-${year - minAge}`) : null;
  const styleName = style === null || style === 'none' ? '' : ` ${style[0]?.toUpperCase()}${style.slice(1)}`;
  const entryName =
    entryType === 'couple' ? '' : ` ${entryType === 'duo-synchro' ? 'Duo Synchro' : entryType[0]?.toUpperCase() + entryType.slice(1)}`;
  return {
    id,
    name: `${ageGroup}${entryName}${styleName}${level === null ? ' Open' : ` Class ${level}`}`,
    entryType,
    style,
    ageGroup: random.chance(0.95) ? ageGroup : null,
    birthYearRange,
    participantDivision: random.chance(0.7) ? random.weighted(DIVISIONS.map((d, i) => [d, i === 0 ? 6 : 1] as const)) : null,
    level,
    dances: dancesFor(random, style, level),
    displayOrder,
  };
}

/** What organisers correct after announcing a category. */
export function categoryChanges(random: Random, displayOrder: number): Partial<CategoryDetails> {
  return random.weighted<Partial<CategoryDetails>>([
    [{ level: random.int(1, 10) }, 3],
    [{ displayOrder }, 2],
    [{ dances: [...DANCES.latin] }, 1],
    [{ participantDivision: null }, 1],
    [{ name: `${random.pick(AGE_GROUPS)[0]} Open`, birthYearRange: null }, 1],
  ]);
}
