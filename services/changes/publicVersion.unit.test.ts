import { describe, expect, it } from 'vitest';
import { formatCursor, parseCursor } from './changeCursor.ts';
import { publicVersion } from './publicVersion.ts';

const dancer = {
  _id: 'a1',
  name: 'Anna',
  registryState: 'REGISTRY',
  country: { id: 117, name: 'Latvia', code: 'LV' },
  q: { country: ['latvia', 'lv', 'id\t117'] },
  stamp: { v: 3, at: '2026-01-01T00:00:00.000Z' },
  nextDueAt: new Date('2026-03-01T00:00:00Z'),
  s: { tokens: ['ann'], text: 'anna' },
};

describe('publicVersion', () => {
  it('gives a replay that rewrites the same fields the same fingerprint, whatever its stamp, due instant, search keys or key order', () => {
    const { stamp: _stamp, ...rest } = dancer;
    const rewritten = {
      ...rest,
      s: { text: 'anna', tokens: ['ann'] },
      nextDueAt: null,
      stamp: { v: 3, at: '2026-02-02T00:00:00.000Z' },
      rev: 9,
    };
    expect(publicVersion('dancers', rewritten).fingerprint).toBe(publicVersion('dancers', dancer).fingerprint);
    expect(publicVersion('dancers', dancer).fingerprint).not.toBeNull();
  });

  it('tells any visible difference apart, and hides what is not public', () => {
    expect(publicVersion('dancers', { ...dancer, name: 'Anne' }).fingerprint).not.toBe(publicVersion('dancers', dancer).fingerprint);
    expect(publicVersion('dancers', { ...dancer, registryState: 'ARCHIVE' }).fingerprint).not.toBeNull();
    expect(publicVersion('coaches', { ...dancer, registryState: 'BUFFER' }).fingerprint).toBeNull();
    expect(publicVersion('clubs', { _id: 'b1', rev: 4, registryState: 'GONE', nextDueAt: null }).fingerprint).toBeNull();
    expect(publicVersion('competitions', { _id: 'c1', visible: false }).fingerprint).toBeNull();
    expect(publicVersion('dancers', null)).toEqual({ fingerprint: null, country: [] });
  });

  it('carries the country keys of the listings, the id key added where a document lacks it', () => {
    expect(publicVersion('dancers', dancer).country).toEqual(['latvia', 'lv', 'id\t117']);
    const competition = { _id: 'c1', visible: true, location: { countryId: 68 }, q: { country: ['estonia', 'ee'] } };
    expect(publicVersion('competitions', competition).country).toEqual(['estonia', 'ee', 'id\t68']);
  });
});

describe('cursors', () => {
  it('round-trip and refuse what is not one', () => {
    expect(parseCursor(formatCursor({ generation: 3, seq: 1042 }))).toEqual({ generation: 3, seq: 1042 });
    expect(parseCursor('0.1')).toBeNull();
    expect(parseCursor('3.x')).toBeNull();
  });
});
