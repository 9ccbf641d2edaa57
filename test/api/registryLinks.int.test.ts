import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageLinks } from '../../schemas/api/index.ts';
import { API, PUBLIC_URL, idsIn, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, clubs, people, registryEvents } from './registrySeed.ts';

// The registry listings carry `links` (`self`, `next`, `previous`) like the competition list: absolute
// URLs on API_PUBLIC_URL with the query in canonical form, so a client pages by following them.

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_registry_links');
  await database.project(registryEvents, NOW);
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

interface Page {
  ids: string[];
  links: PageLinks;
}

/** One page by a path or by a link the API gave (absolute, on the public origin). */
async function page(pathOrLink: string): Promise<Page> {
  const path = pathOrLink.startsWith(PUBLIC_URL) ? pathOrLink.slice(PUBLIC_URL.length) : pathOrLink;
  const res = await api.request(path);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return { ids: idsIn(res.json), links: res.json.links as PageLinks };
}

/** Follows `next` from `start` to the end, then `previous` back to the first page. */
async function walk(start: string): Promise<{ forward: string[][]; backward: string[][]; selves: string[] }> {
  const forward: string[][] = [];
  const selves: string[] = [];
  let current = await page(start);
  for (;;) {
    forward.push(current.ids);
    selves.push(current.links.self);
    if (current.links.next === null) break;
    expect(forward.length).toBeLessThan(10);
    current = await page(current.links.next);
  }
  const backward: string[][] = [current.ids];
  while (current.links.previous !== null) {
    current = await page(current.links.previous);
    backward.push(current.ids);
  }
  return { forward, backward, selves };
}

const { anna, marta, ozols, zarins, judge } = people;
const [p22, p20, p21] = people.petrov as [string, string, string];

describe('links on the registry listings', () => {
  it('pages /dancers through next to the last page and back through previous, with absolute canonical URLs', async () => {
    const { forward, backward, selves } = await walk('/api/v1/dancers?limit=2');
    expect(forward).toEqual([[anna, marta], [p20, p21], [p22]]);
    expect(backward).toEqual([...forward].reverse());
    expect(selves).toEqual([1, 2, 3].map((n) => `${API}/dancers?limit=2&order=asc&page=${n}&registryState=REGISTRY&sort=name`));

    const first = await page('/api/v1/dancers?limit=2');
    expect(first.links).toEqual({
      self: `${API}/dancers?limit=2&order=asc&page=1&registryState=REGISTRY&sort=name`,
      next: `${API}/dancers?limit=2&order=asc&page=2&registryState=REGISTRY&sort=name`,
      previous: null,
    });
    const middle = await page('/api/v1/dancers?limit=2&page=2');
    expect(middle.links.previous).toBe(`${API}/dancers?limit=2&order=asc&page=1&registryState=REGISTRY&sort=name`);
    expect(middle.links.next).toBe(`${API}/dancers?limit=2&order=asc&page=3&registryState=REGISTRY&sort=name`);
  });

  it('keeps every filter in the links, and points previous past the end at the last page with data', async () => {
    const filtered = await page(`/api/v1/dancers?clubId=${clubs.tango}&sort=name&order=desc&limit=1&registryState=ARCHIVE,REGISTRY`);
    expect(filtered.ids).toEqual([p20]); // equal names: id ascending, whatever the order
    expect(filtered.links.next).toBe(
      `${API}/dancers?clubId=${clubs.tango}&limit=1&order=desc&page=2&registryState=ARCHIVE,REGISTRY&sort=name`,
    );
    const past = await page('/api/v1/dancers?limit=2&page=7&search=petrov');
    expect(past.ids).toEqual([]);
    expect(past.links).toEqual({
      self: `${API}/dancers?limit=2&order=asc&page=7&registryState=REGISTRY&search=petrov&sort=name`,
      next: null,
      previous: `${API}/dancers?limit=2&order=asc&page=2&registryState=REGISTRY&search=petrov&sort=name`,
    });
    const none = await page('/api/v1/dancers?search=nobody');
    expect(none.links).toEqual({
      self: `${API}/dancers?limit=20&order=asc&page=1&registryState=REGISTRY&search=nobody&sort=name`,
      next: null,
      previous: null,
    });
  });

  it.each([
    ['coaches', [[ozols], [zarins]]],
    ['judges', [[marta], [judge]]],
    ['clubs', [[clubs.aurora], [clubs.tango]]],
  ] as const)('pages /%s by its links', async (listing, pages) => {
    const { forward, backward, selves } = await walk(`/api/v1/${listing}?limit=1`);
    expect(forward).toEqual(pages);
    expect(backward).toEqual([...pages].reverse());
    expect(selves[0]).toBe(`${API}/${listing}?limit=1&order=asc&page=1&registryState=REGISTRY&sort=name`);
  });

  it('builds links from API_PUBLIC_URL, never from the request', async () => {
    const res = await api.request('/api/v1/clubs?limit=1', {
      headers: { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' },
    });
    expect(res.json.links.next).toBe(`${API}/clubs?limit=1&order=asc&page=2&registryState=REGISTRY&sort=name`);
  });
});
