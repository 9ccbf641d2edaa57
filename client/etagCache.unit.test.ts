import { describe, expect, it } from 'vitest';
import { MemoryEtagCache } from './etagCache.ts';

describe('MemoryEtagCache', () => {
  it('keeps bodies by URL and replaces one on a new ETag', () => {
    const cache = new MemoryEtagCache(3);
    cache.set('/a', { etag: 'W/"1"', body: { n: 1 } });
    cache.set('/a', { etag: 'W/"2"', body: { n: 2 } });
    expect(cache.get('/a')).toEqual({ etag: 'W/"2"', body: { n: 2 } });
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used past its size, a read counting as a use', () => {
    const cache = new MemoryEtagCache(2);
    cache.set('/a', { etag: 'a', body: 'a' });
    cache.set('/b', { etag: 'b', body: 'b' });
    cache.get('/a');
    cache.set('/c', { etag: 'c', body: 'c' });
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')?.etag).toBe('a');
    expect(cache.get('/c')?.etag).toBe('c');
    expect(cache.size).toBe(2);
  });

  it('refuses a size below 1', () => {
    expect(() => new MemoryEtagCache(0)).toThrow(RangeError);
  });
});
