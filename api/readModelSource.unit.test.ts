import type { Context } from 'koa';
import type { Db } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName } from '../schemas/api/endpoints.ts';
import { ReadModelSource } from './readModelSource.ts';

function source() {
  const meta = { generation: 3, versions: { competitions: 17, dancers: 4, coaches: 2, clubs: 9 } as Record<string, number> };
  let reads = 0;
  const clock = { now: 1_000_000 };
  const db = { collection: (name: string) => ({ collectionName: name }) } as unknown as Db;
  const readModel = new ReadModelSource(db, {
    maxTimeMS: 1000,
    readMeta: () => {
      reads += 1;
      return Promise.resolve({ generation: meta.generation, versions: { ...meta.versions }, currentAt: null });
    },
    // A virtual clock whose timers never fire: only the requests' arrival times matter here.
    timers: { now: () => clock.now, after: () => () => undefined },
  });
  /** Runs `body` inside a request scope for an endpoint, as the app's middleware does. */
  const inRequest = <T>(endpoint: EndpointName, body: () => Promise<T>): Promise<T> => {
    let result!: Promise<T>;
    const ctx = { state: { endpoint: { definition: ENDPOINTS[endpoint], params: {} } } } as unknown as Context;
    const done = readModel.scope()(ctx, () => {
      result = body();
      return result.then(() => undefined);
    }) as Promise<unknown>;
    return done.then(() => result);
  };
  return { meta, readModel, inRequest, clock, reads: () => reads };
}

describe('ReadModelSource', () => {
  it('keys each endpoint on the generation and the versions of the listings it reads', async () => {
    const { readModel, inRequest } = source();
    expect(await inRequest('competitions', () => readModel.currentVersion('calendar'))).toBe('3:17');
    expect(await inRequest('club', () => readModel.currentVersion('registry'))).toBe('3:9:2');
    expect(await inRequest('judges', () => readModel.currentVersion('registry'))).toBe('3:0');
    expect(await inRequest('registryFilters', () => readModel.currentVersion('registry'))).toBe('3:4:2:0:9');
    expect(await readModel.currentVersion('registry')).toBe('3:4:2:0:9'); // outside a request: the whole scope
  });

  it('reads the meta document at most once per request, shared by the cache key and the collections', async () => {
    const { readModel, inRequest, reads, meta, clock } = source();
    const [version, view] = await inRequest(
      'dancers',
      async () => [await readModel.currentVersion('registry'), await readModel.view()] as const,
    );
    expect(version).toBe('3:4');
    expect(reads()).toBe(1);
    expect(view.collection('dancers')).toEqual({ collectionName: 'dancers_g3' });
    meta.generation = 4;
    // A request arriving within 50 ms of the last read's start is served from it...
    clock.now += 50;
    const soon = await inRequest('dancers', () => readModel.view());
    expect(reads()).toBe(1);
    expect(soon.collection('clubs')).toEqual({ collectionName: 'clubs_g3' });
    // ...one arriving later reads again and sees the switch.
    clock.now += 1;
    const next = await inRequest('dancers', () => readModel.view());
    expect(reads()).toBe(2);
    expect(next.collection('clubs')).toEqual({ collectionName: 'clubs_g4' });
  });
});
