import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, encodeAll, preferredCoding } from './contentCoding.ts';

describe('preferredCoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.1, gzip;q=0.2', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['GZIP;Q=0.9', 'gzip'],
    ['gzip;q=2', undefined],
  ])('%s → %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe('encodeAll', () => {
  it('leaves a small body plain and gives both codings of a larger one, which decode to it', async () => {
    expect(await encodeAll(Buffer.alloc(COMPRESS_MIN_BYTES - 1, 'a'))).toBeUndefined();
    const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Competition ${i}` })) }));
    const encoded = await encodeAll(body);
    expect(gunzipSync(encoded!.gzip!)).toEqual(body);
    expect(brotliDecompressSync(encoded!.br!)).toEqual(body);
    expect(encoded!.br!.length).toBeLessThan(body.length / 4);
  });
});
