import { describe, expect, it } from 'vitest';
import { createRandom } from './random.ts';

describe('createRandom', () => {
  it('repeats its sequence for a seed and differs for another', () => {
    const draw = (seed: number): unknown[] => {
      const random = createRandom(seed);
      return [random.float(), random.int(1, 6), random.uuid(), random.token(8), random.pick(['a', 'b', 'c'])];
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('makes version 4 UUIDs in canonical lower case, all distinct', () => {
    const random = createRandom(1);
    const ids = Array.from({ length: 10_000 }, () => random.uuid());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every variant digit shows up: the 2 random bits beside the variant are really random.
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  it('keeps int, chance, weighted and sample within their promises', () => {
    const random = createRandom(5);
    const ints = Array.from({ length: 2000 }, () => random.int(3, 7));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5, 6, 7]));
    expect(Array.from({ length: 100 }, () => random.chance(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 100 }, () => random.chance(1)).every(Boolean)).toBe(true);
    const picks = Array.from({ length: 4000 }, () =>
      random.weighted([
        ['rare', 1],
        ['common', 9],
      ] as const),
    );
    const rare = picks.filter((p) => p === 'rare').length;
    expect(rare).toBeGreaterThan(250);
    expect(rare).toBeLessThan(550);
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    for (let i = 0; i < 50; i++) {
      const sample = random.sample(items, 3);
      expect(sample).toHaveLength(3);
      expect(sample).toEqual([...new Set(sample)].sort((a, b) => a - b));
    }
    expect(random.sample(items, 20)).toEqual(items);
    expect(() => random.pick([])).toThrow();
  });
});
