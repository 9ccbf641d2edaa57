import { describe, expect, it } from 'vitest';
import { facetDeltas, facetsOf, tallyPrefix, tallyRange } from './facets.ts';

const LV = { id: 428, name: 'Latvia', code: 'LV' };
const EE = { id: 233, name: 'Estonia', code: 'EE' };

describe('facetsOf', () => {
  it('counts a published competition under its country, city and type, and an unpublished one nowhere', () => {
    const competition = {
      visible: true,
      location: { countryId: 428, country: 'Latvia', countryCode: 'LV', city: 'Riga' },
      type: { code: 'OPEN', label: 'Open' },
    };
    expect(facetsOf('competitions', competition)).toEqual([
      ['visible', true],
      ['country', LV],
      ['city', { name: 'Riga', countryCode: 'LV' }],
      ['type', { id: 'OPEN', label: 'Open' }],
    ]);
    expect(facetsOf('competitions', { ...competition, visible: false })).toEqual([]);
    expect(facetsOf('competitions', { visible: true, location: { countryId: 428, country: null, countryCode: 'LV', city: null } })).toEqual(
      [['visible', true]],
    );
  });

  it('counts every record under its state, and only registry records under the other facets', () => {
    const judge = {
      registryState: 'REGISTRY',
      country: { ...LV, extra: 1 },
      judgeCategory: 2,
      q: { positions: ['CHAIR', 'CHAIR', 'JUDGE'] },
    };
    expect(facetsOf('judges', judge)).toEqual([
      ['state', 'REGISTRY'],
      ['country', LV],
      ['category', 2],
      ['position', 'CHAIR'],
      ['position', 'JUDGE'],
    ]);
    expect(facetsOf('judges', { ...judge, registryState: 'ARCHIVE' })).toEqual([['state', 'ARCHIVE']]);
    expect(facetsOf('dancers', { registryState: 'REGISTRY', country: null, danceClass: 1.5 })).toEqual([['state', 'REGISTRY']]);
    expect(facetsOf('dancers', null)).toEqual([]);
  });

  it('counts a club once under each country of its locations, spelled as the first location spells it', () => {
    const club = {
      registryState: 'REGISTRY',
      locations: [{ country: LV }, { country: EE }, { country: { ...LV, name: 'Lettland' } }, { country: null }],
    };
    expect(facetsOf('clubs', club)).toEqual([
      ['state', 'REGISTRY'],
      ['country', LV],
      ['country', EE],
    ]);
  });
});

describe('facetDeltas', () => {
  it('nets a change out per key and leaves unchanged keys out', () => {
    const before = [{ registryState: 'REGISTRY', country: LV, danceClass: 3 }];
    const after = [{ registryState: 'REGISTRY', country: EE, danceClass: 3 }, { registryState: 'ARCHIVE' }];
    expect([...facetDeltas('dancers', before, after).values()]).toEqual([
      { facet: 'country', key: LV, delta: -1 },
      { facet: 'country', key: EE, delta: 1 },
      { facet: 'state', key: 'ARCHIVE', delta: 1 },
    ]);
    expect(facetDeltas('dancers', before, before).size).toBe(0);
  });
});

describe('tally ids', () => {
  it('lie in their listing and facet range, and no key is a prefix of another', () => {
    const id = `${tallyPrefix('dancers', 'class', 1)}0`;
    const range = tallyRange('dancers', 'class');
    expect(id >= range.$gte && id < range.$lt).toBe(true);
    expect(id >= tallyRange('dancers').$gte && id < tallyRange('dancers').$lt).toBe(true);
    expect(`${tallyPrefix('dancers', 'class', 12)}0`.startsWith(tallyPrefix('dancers', 'class', 1))).toBe(false);
    expect(id < tallyRange('dancers', 'country').$gte || id >= tallyRange('dancers', 'country').$lt).toBe(true);
  });
});
