import { describe, expect, it } from 'vitest';
import { MongoNetworkError, MongoServerError } from 'mongodb';
import { createHistory } from '../../generator/createHistory.ts';
import { MemoryProjectionStore } from '../../test/support/memoryProjectionStore.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import type { StateByKind, StateKind } from '../write/projectionStore.ts';
import { deriveDeferred } from '../write/deriveDeferred.ts';
import { projectEvents } from '../write/projectEvents.ts';
import { noneDeferred, replayChunk } from '../write/replayChunk.ts';
import { sweepDue } from './sweepDue.ts';

const config: ProjectionConfig = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const LATER = new Date('2028-06-01T12:00:00Z');

/** A store on which deriving one subject fails the way a bug in a derivation would, or the database would. */
class FailingOn extends MemoryProjectionStore {
  bad: string;
  readonly error: () => Error;
  constructor(bad: string, error: () => Error) {
    super();
    this.bad = bad;
    this.error = error;
  }
  override loadStates<K extends StateKind>(kind: K, ids: readonly string[]): Promise<Map<string, StateByKind[K]>> {
    return ids.includes(this.bad) ? Promise.reject(this.error()) : super.loadStates(kind, ids);
  }
}

const history = [...createHistory({ seed: 5, events: 1500, now: NOW })];
const personIds = [...new Set(history.filter((e) => e.type.startsWith('person.')).map((e) => e.aggregateId))];

describe('a subject whose derivation fails on its own content', () => {
  it('is left out of a rebuild derivation, which derives every other subject', async () => {
    const bad = personIds[3]!;
    const store = new FailingOn('none yet', () => new TypeError('bad state'));
    const deferred = noneDeferred();
    await replayChunk(history, store, config, deferred);
    store.bad = bad;
    const failed: [string, string][] = [];
    await deriveDeferred(deferred, store, config, NOW, undefined, (kind, id) => void failed.push([kind, id]));
    expect(failed).toEqual([['persons', bad]]);
    const derivedPersons = new Set([...store.docs.dancers.keys(), ...store.docs.judges.keys()]);
    expect(derivedPersons.has(bad)).toBe(false);
    expect(derivedPersons.size).toBeGreaterThan(0);
  });

  it('is left due by a clock sweep, which applies every other transition', async () => {
    const store = new FailingOn('none yet', () => new TypeError('bad state'));
    await projectEvents(history, store, config, NOW);
    const due = await store.findDue('dancers', LATER, 1_000);
    expect(due.length).toBeGreaterThan(1);
    store.bad = due[0]!;
    const failed: string[] = [];
    const result = await sweepDue(store, config, LATER, (_, id) => void failed.push(id));
    expect(failed).toEqual([due[0]]);
    expect(await store.findDue('dancers', LATER, 1_000)).toEqual([due[0]]);
    expect(result.persons).toBeGreaterThanOrEqual(due.length);
  });

  it('is left due by a clock sweep when the database refuses its document for its content, and the others are swept', async () => {
    const store = new FailingOn('none yet', () => new MongoServerError({ message: 'BSONObj size is invalid', code: 10334 }));
    await projectEvents(history, store, config, NOW);
    const due = await store.findDue('dancers', LATER, 1_000);
    store.bad = due[1]!;
    const failed: string[] = [];
    await sweepDue(store, config, LATER, (_, id) => void failed.push(id));
    expect(failed).toEqual([due[1]]);
    expect(await store.findDue('dancers', LATER, 1_000)).toEqual([due[1]]);
  });

  it('keeps the retry path for a database error', async () => {
    const store = new FailingOn('none yet', () => new MongoNetworkError('connection reset'));
    await projectEvents(history, store, config, NOW);
    const due = await store.findDue('dancers', LATER, 1_000);
    store.bad = due[0]!;
    await expect(sweepDue(store, config, LATER, () => undefined)).rejects.toBeInstanceOf(MongoNetworkError);
  });
});
