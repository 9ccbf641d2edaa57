import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFederationClient, type FederationClient, type Schemas } from '../../client/index.ts';
import { PUBLIC_URL, openDatabase, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, ids } from './calendarSeed.ts';
import type { Listening } from './listenOnFreePort.ts';
import { clubs, people, registryEvents } from './registrySeed.ts';
import { startApiOnPort } from './startApiOnPort.ts';

// The typed client (client/) against the real API on a real port over the real database: what a
// consumer of the OpenAPI document writes. The file is type-checked with the rest (`tsc --noEmit`),
// so the annotations below are assertions too: they fail the type check when the generated types
// stop describing what the API answers, and the @ts-expect-error lines fail it when the types
// stop rejecting what the API rejects.

let database: Database;
let server: Listening;
let client: FederationClient;

beforeAll(async () => {
  database = await openDatabase('api_typed_client');
  await database.project([...calendarEvents, ...registryEvents], NOW);
  server = await startApiOnPort(database.db, NOW);
  client = createFederationClient(`${server.origin}/api/v1`);
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('the typed client against a running API', () => {
  it('lists competitions with typed filters (a comma list included) and a typed envelope', async () => {
    const { data, error, response } = await client.GET('/competitions', {
      params: { query: { country: 'LV', status: ['open', 'completed'], sort: 'name', order: 'asc', include: ['entriesCount'] } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    if (data === undefined) throw new Error('no body');
    const competitions: Schemas['Competition'][] = data.data;
    const meta: Schemas['PageMeta'] = data.meta;
    const next: string | null = data.links.next;
    expect(competitions.map((c) => c.name)).toEqual(['Jūrmala Summer (Latin+) Cup', 'Riga Open 2025']);
    expect(competitions.map((c) => c.registration.entriesCount)).toEqual([0, 2]);
    expect(meta).toMatchObject({ total: 2, hasNextPage: false });
    expect(next).toBeNull();
  });

  it('pages a registry listing by its typed links', async () => {
    const first = await client.GET('/dancers', { params: { query: { limit: 2, registryState: ['REGISTRY'] } } });
    const next: string | null | undefined = first.data?.links.next;
    expect(next).toBe(`${PUBLIC_URL}/api/v1/dancers?limit=2&order=asc&page=2&registryState=REGISTRY&sort=name`);
    const dancers: Schemas['Dancer'][] = first.data?.data ?? [];
    expect(dancers.map((d) => d.id)).toEqual([people.anna, people.marta]);
  });

  it('reads a detail by its path parameter', async () => {
    const { data, response } = await client.GET('/competitions/{idOrSlug}', { params: { path: { idOrSlug: 'riga-open-2025' } } });
    expect(response.status).toBe(200);
    const competition: Schemas['Competition'] | undefined = data?.data;
    expect(competition?.id).toBe(ids.riga);
    expect(competition?.categories?.map((c) => c.name)).toEqual(['Youth Latin', 'Adult Standard', 'Solo Show Kids']);
    expect(competition?.registration.state).toBe('open');
  });

  it('gets a 400 as the typed error envelope naming the parameter', async () => {
    // `limit` is a number to the types; 1 to 100 is the server's rule, so this one reaches it.
    const { data, error, response } = await client.GET('/competitions', { params: { query: { limit: 500, search: 'x' } } });
    expect(response.status).toBe(400);
    expect(data).toBeUndefined();
    const envelope: Schemas['Error'] | undefined = error;
    expect(envelope?.error.type).toBe('INVALID_REQUEST');
    expect(envelope?.error.details).toEqual([
      'limit: must be an integer from 1 to 100 (got 500)',
      'search: must be at least 2 characters long after trimming (got "x")',
    ]);
  });

  it('gets a 304 for an If-None-Match with the first response ETag', async () => {
    const first = await client.GET('/clubs/{id}', { params: { path: { id: clubs.aurora } } });
    const etag = first.response.headers.get('etag');
    expect(first.response.status).toBe(200);
    expect(etag).toMatch(/^W\//);
    const again = await client.GET('/clubs/{id}', { params: { path: { id: clubs.aurora }, header: { 'If-None-Match': etag ?? '' } } });
    expect(again.response.status).toBe(304);
    expect(again.data).toBeUndefined();
    expect(again.response.headers.get('etag')).toBe(etag);
  });

  it('rejects at compile time what the API rejects at run time', async () => {
    const wrongName = await client.GET('/competitions', {
      params: {
        query: {
          // @ts-expect-error -- no such parameter: the country filter is `country` (or `countryId`)
          countryCode: 'LV',
        },
      },
    });
    expect(wrongName.error?.error.details).toEqual(['countryCode: unknown parameter']);

    const wrongValue = await client.GET('/dancers', {
      params: {
        query: {
          // @ts-expect-error -- BUFFER is internal and never a registryState a client may ask for
          registryState: ['BUFFER'],
        },
      },
    });
    expect(wrongValue.response.status).toBe(400);

    // @ts-expect-error -- the API has no such path
    const wrongPath = await client.GET('/competition', {});
    expect(wrongPath.response.status).toBe(404);
  });
});
