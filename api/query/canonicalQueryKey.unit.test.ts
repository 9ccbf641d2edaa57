import { describe, expect, it } from 'vitest';
import { canonicalQueryKey } from './canonicalQueryKey.ts';

describe('canonicalQueryKey', () => {
  it('is the path alone without a query', () => {
    expect(canonicalQueryKey('/api/v1/filters', '')).toBe('/api/v1/filters');
  });

  it('sorts parameters by name so their order does not matter', () => {
    expect(canonicalQueryKey('/c', 'page=2&limit=5&country=LV')).toBe('/c?country=LV&limit=5&page=2');
    expect(canonicalQueryKey('/c', '?limit=5&page=2')).toBe(canonicalQueryKey('/c', 'page=2&limit=5'));
  });

  it('re-encodes equivalent spellings the same way', () => {
    expect(canonicalQueryKey('/c', 'search=a+b')).toBe(canonicalQueryKey('/c', 'search=a%20b'));
    expect(canonicalQueryKey('/c', 'status=open%2Ccompleted')).toBe(canonicalQueryKey('/c', 'status=open,completed'));
  });

  it('keeps different values apart', () => {
    expect(canonicalQueryKey('/c', 'page=1')).not.toBe(canonicalQueryKey('/c', 'page=2'));
    expect(canonicalQueryKey('/a', 'page=1')).not.toBe(canonicalQueryKey('/b', 'page=1'));
  });
});
