import { describe, expect, it } from 'vitest';
import { resolvedUrlBytes } from './resolvedUrlBytes.ts';

describe('resolvedUrlBytes', () => {
  it('grows with the URL and with each list item, above the strings it counts', () => {
    const small = resolvedUrlBytes('/api/v1/competitions?page=2', { page: 2, sort: 'startDate', order: 'asc', limit: 20 });
    expect(small).toBeGreaterThan(2 * 27);
    const items = Array.from({ length: 1000 }, (_, i) => `t${i}`);
    const url = `/api/v1/competitions?type=${items.join(',')}`;
    const list = resolvedUrlBytes(url, { type: items });
    // A thousand items keep a thousand strings: far more than the URL's own two bytes per character.
    expect(list).toBeGreaterThan(2 * url.length + 1000 * 32);
    expect(resolvedUrlBytes(url, null)).toBeLessThan(list);
  });
});
