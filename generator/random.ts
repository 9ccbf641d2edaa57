import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * The only source of randomness of the generator. One instance is consumed in a fixed order, so
 * the same seed gives the same history byte for byte (never Math.random or crypto here).
 */
export interface Random {
  /** Uniform in [0, 1). */
  float(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One item, each as likely as its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** `count` distinct items in their original order (all of them when count >= length). */
  sample<T>(items: readonly T[], count: number): T[];
  /** Exponentially distributed, for waiting times between independent happenings. */
  exponential(mean: number): number;
  /** A version 4 UUID (lower case) built from 122 bits of this generator. */
  uuid(): string;
  /** `length` characters of [A-Za-z0-9_-], for place ids and file names. */
  token(length: number): string;
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** Where the 32 hex digits of a UUID go; the dashes sit at 8, 13, 18 and 23. */
const DIGIT_POSITIONS = Array.from({ length: 36 }, (_, i) => i).filter((i) => ![8, 13, 18, 23].includes(i));
const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

type Rng = ReturnType<typeof xoroshiro128plus>;

export function createRandom(seed: number): Random {
  const rng = xoroshiro128plus(seed);
  // Ids live as long as their aggregate: written into one buffer and decoded at once, they are
  // flat 36-byte strings, not the chains of pieces that `+` would leave behind.
  const uuidBytes = Buffer.from('00000000-0000-4000-8000-000000000000', 'latin1');
  return {
    float: () => uniformFloat64(rng),
    int: (min, max) => uniformInt(rng, min, max),
    chance: (p) => uniformFloat64(rng) < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[uniformInt(rng, 0, items.length - 1)] as T;
    },
    weighted: <T>(items: readonly (readonly [T, number])[]): T => weightedPick(rng, items),
    sample: <T>(items: readonly T[], count: number): T[] => selectionSample(rng, items, count),
    exponential: (mean) => -Math.log(1 - uniformFloat64(rng)) * mean,
    uuid: () => writeUuid(rng, uuidBytes),
    token(length: number): string {
      let out = '';
      for (let i = 0; i < length; i++) out += TOKEN_CHARS[word(rng) & 63];
      return out;
    },
  };
}

/** 32 random bits as an unsigned integer. */
const word = (rng: Rng): number => rng.next() >>> 0;

function weightedPick<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [, weight] of items) total += weight;
  let roll = uniformFloat64(rng) * total;
  for (const [item, weight] of items) {
    roll -= weight;
    if (roll < 0) return item;
  }
  const last = items[items.length - 1];
  if (last === undefined) throw new Error('weighted pick from an empty list');
  return last[0];
}

/** Selection sampling (Knuth's algorithm S): one pass, keeps the original order. */
function selectionSample<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const out: T[] = [];
  let needed = Math.min(count, items.length);
  for (let i = 0; i < items.length && needed > 0; i++) {
    if (uniformFloat64(rng) * (items.length - i) < needed) {
      out.push(items[i] as T);
      needed--;
    }
  }
  return out;
}

/** A version 4 UUID from 4 words of `rng`, written into `bytes` (its dashes already in place). */
function writeUuid(rng: Rng, bytes: Buffer): string {
  let variantBits = 0;
  for (let w = 0; w < 4; w++) {
    const value = word(rng);
    for (let k = 0; k < 8; k++) {
      const position = DIGIT_POSITIONS[w * 8 + k] ?? 0;
      const nibble = (value >>> (28 - 4 * k)) & 15;
      if (position === 19) variantBits = nibble & 3;
      bytes[position] = HEX_CODES[nibble] ?? 48;
    }
  }
  // Version 4, variant 10xx: 122 of the 128 bits stay random.
  bytes[14] = 0x34;
  bytes[19] = HEX_CODES[8 | variantBits] ?? 56;
  return bytes.toString('latin1');
}
