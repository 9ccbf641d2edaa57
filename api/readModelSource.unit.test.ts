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
      return Promise.resolve({
        generation: meta.generation,
        format: 1,
        layout: null,
        versions: { ...meta.versions },
        currentAt: null,
        talliesOf: null,
      });
    },
    // A virtual clock whose timers never fire: only the requests' arrival times matter here.
    timers: { now: () => clock.now, after: () => () => undefined },
  });
  /** Runs `body` for a request scoped by the app's middleware (the context is only its key). */
  const inRequest = <T>(body: (ctx: Context) => Promise<T>): Promise<T> => {
    let result!: Promise<T>;
    const ctx = {} as Context;
    const done = readModel.scope()(ctx, () => {
      result = body(ctx);
      return result.then(() => undefined);
    }) as Promise<unknown>;
    return done.then(() => result);
  };
  return { meta, readModel, inRequest, clock, reads: () => reads };
}

describe('ReadModelSource', () => {
  it('keys each endpoint on the generation and the versions of the listings the catalogue says it reads', async () => {
    const { readModel, inRequest } = source();
    const versionOf = (endpoint: EndpointName) => inRequest(async (ctx) => readModel.currentVersion(ctx, ENDPOINTS[endpoint].listings));
    expect(await versionOf('competitions')).toBe('3:17');
    expect(await versionOf('club')).toBe('3:9:2');
    expect(await versionOf('judges')).toBe('3:0');
    expect(await versionOf('registryFilters')).toBe('3:4:2:0:9');
  });

  it('reads the meta document at most once per request, shared by the cache key and the collections', async () => {
    const { readModel, inRequest, reads, meta, clock } = source();
    const [version, view] = await inRequest(
      async (ctx) => [await readModel.currentVersion(ctx, ['dancers']), await readModel.view(ctx)] as const,
    );
    expect(version).toBe('3:4');
    expect(reads()).toBe(1);
    expect(view.collection('dancers')).toEqual({ collectionName: 'dancers_g3' });
    meta.generation = 4;
    // A request arriving within 50 ms of the last read's start is served from it (and, a read being
    // due, starts the next in the background rather than waiting for it)...
    clock.now += 50;
    const soon = await inRequest((ctx) => readModel.view(ctx));
    expect(soon.collection('clubs')).toEqual({ collectionName: 'clubs_g3' });
    expect(reads()).toBe(2);
    // ...one arriving later is served from a read that started after the switch.
    clock.now += 1;
    const next = await inRequest((ctx) => readModel.view(ctx));
    expect(reads()).toBeLessThanOrEqual(3);
    expect(next.collection('clubs')).toEqual({ collectionName: 'clubs_g4' });
  });
});
