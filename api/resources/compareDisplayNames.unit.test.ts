import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareDisplayNames } from './compareDisplayNames.ts';

const sorted = (names: readonly string[]): string[] => [...names].sort(compareDisplayNames);

describe('compareDisplayNames', () => {
  it('orders letters with diacritics among their base letters, not after z', () => {
    expect(sorted(['Ventspils', 'Zürich', 'Ústí nad Labem', 'Łódź', 'Riga', 'Åland Islands', 'Ogre'])).toEqual([
      'Åland Islands',
      'Łódź',
      'Ogre',
      'Riga',
      'Ústí nad Labem',
      'Ventspils',
      'Zürich',
    ]);
  });

  it('orders by letters before case, and digits by their number', () => {
    expect(sorted(['tartu', 'Cup 10', 'Riga', 'Cup 2', 'Tallinn'])).toEqual(['Cup 2', 'Cup 10', 'Riga', 'Tallinn', 'tartu']);
  });

  it('compares only identical strings equal, whatever the order they arrive in', () => {
    // Composed and decomposed "ū" are one letter to the collator; the code-unit tie-break still orders them.
    const names = ['Rīga', 'Riga', 'rīga', 'Ju\u0304rmala', 'J\u016Brmala', 'RIGA'];
    const once = sorted(names);
    expect(sorted([...names].reverse())).toEqual(once);
    for (let i = 1; i < once.length; i++) expect(compareDisplayNames(once[i - 1]!, once[i]!)).toBeLessThan(0);
    expect(compareDisplayNames('Rīga', 'Rīga')).toBe(0);
  });

  it('does not depend on the environment locale', () => {
    // Estonian orders z right after s; a collator that followed LANG would put Zürich before Tallinn here.
    const script = `import { compareDisplayNames } from ${JSON.stringify(fileURLToPath(new URL('./compareDisplayNames.ts', import.meta.url)))};
      process.stdout.write(JSON.stringify(['Zürich', 'Tallinn', 'Sigulda'].sort(compareDisplayNames)));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, LANG: 'et_EE.UTF-8', LC_ALL: 'et_EE.UTF-8' },
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual(['Sigulda', 'Tallinn', 'Zürich']);
  });
});
