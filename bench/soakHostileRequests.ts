// What the soak's hostile clients ask for (decisions.md, "Hostile input"): pure, given a random
// source, so the mix is the same whoever sends it.

export type HostileKind = 'distinct' | 'one /64' | 'odd' | 'raw';

export interface HostileRequest {
  kind: HostileKind;
  path: string;
  /** The client address the trusted proxy reports (X-Forwarded-For). */
  client: string;
}

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, below: number): number => Math.floor(random() * below);
const word = (random: Random, min: number, max: number): string =>
  Array.from({ length: min + int(random, max - min + 1) }, () => String.fromCharCode(97 + int(random, 26))).join('');
const hex = (random: Random): string => int(random, 0x10000).toString(16);

/** An address nobody used before: IPv4 anywhere, or IPv6 in a /64 of its own. */
export function newClient(random: Random): string {
  return random() < 0.5
    ? `${1 + int(random, 223)}.${int(random, 256)}.${int(random, 256)}.${1 + int(random, 254)}`
    : `2001:db8:${hex(random)}:${hex(random)}:${hex(random)}:${hex(random)}::${hex(random)}`;
}

/** A /competitions URL with a list of types `bytes` long (the request line's limit is 8 KB). */
export function typeListPath(bytes: number, tag: string): string {
  let path = `/api/v1/competitions?type=${tag}`;
  for (let i = 0; path.length + `,t${i}`.length <= bytes; i++) path += `,t${i}`;
  return path;
}

/** Long and odd parameters: 101 characters, NUL, control characters, lone surrogates, bidi marks, broken encodings, past 8 KB. */
const oddPaths = (random: Random): string[] => [
  `/api/v1/competitions?search=${'a'.repeat(101)}`,
  `/api/v1/clubs?city=${word(random, 101, 101)}`,
  `/api/v1/competitions/${'s'.repeat(101)}/categories`,
  '/api/v1/competitions?search=%00',
  `/api/v1/dancers?search=${word(random, 2, 8)}%00${word(random, 1, 4)}`,
  '/api/v1/competitions?search=ab%01%1F%7F',
  '/api/v1/competitions?search=%ED%A0%80ab',
  '/api/v1/clubs?city=%E2%80%AEab%E2%80%AC',
  '/api/v1/competitions?search=%zz',
  '/api/v1/competitions/%C0%AFab',
  `/api/v1/competitions?country=${'%00'.repeat(40)}`,
  typeListPath(8300, `over${word(random, 4, 4)}`),
  `/api/v1/competitions?search=${'x'.repeat(12_000)}`,
];

/** A URL nobody asked for before: a random search, city or type list, each a miss of every cache. */
const distinctPaths = (random: Random): string[] => [
  `/api/v1/competitions?search=${word(random, 3, 12)}`,
  `/api/v1/dancers?search=${word(random, 3, 12)}&page=${1 + int(random, 3)}`,
  `/api/v1/clubs?city=${word(random, 2, 10)}`,
  `/api/v1/judges?search=${word(random, 3, 8)}`,
  `/api/v1/competitions?country=${word(random, 4, 20)}&period=upcoming`,
  typeListPath(1000 + int(random, 7000), word(random, 6, 6)),
];

/** Bytes a parser refuses before any middleware: a NUL or a control byte in the request line. */
export const rawRequests: readonly string[] = [
  'GET /api/v1/competitions?search=a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/competitions?search=a\u0001b HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/competitions HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
];

/** The next hostile request: distinct URLs 40 %, one /64's many addresses 20 %, odd parameters 30 %, raw bytes 10 %. */
export function hostileRequest(random: Random): HostileRequest {
  const roll = random();
  if (roll < 0.4) return { kind: 'distinct', path: pick(random, distinctPaths(random)), client: newClient(random) };
  if (roll < 0.6) {
    // Every address of one /64 spends one budget: past it, 429s.
    const client = `2001:db8:64:1:${hex(random)}:${hex(random)}:${hex(random)}:${hex(random)}`;
    return { kind: 'one /64', path: `/api/v1/competitions?page=${1 + int(random, 5)}`, client };
  }
  if (roll < 0.9) return { kind: 'odd', path: pick(random, oddPaths(random)), client: newClient(random) };
  return { kind: 'raw', path: pick(random, rawRequests), client: '' };
}
