import { describe, expect, it } from 'vitest';
import { plannedCommands } from './plannedCommands.ts';

const session = { lsid: { id: 'x' }, $db: 'd', $clusterTime: {}, writeConcern: { w: 'majority' }, maxTimeMS: 10 };

describe('plannedCommands', () => {
  it('makes each statement of a bulk write its own explainable command', () => {
    const command = {
      update: 'clubs_g1',
      updates: [
        { q: { _id: 'a' }, u: { n: 1 }, upsert: true },
        { q: { _id: 'b' }, u: { $set: { n: 2 } } },
      ],
      ordered: false,
      ...session,
    };
    expect(plannedCommands('update', command)).toEqual([
      {
        name: 'update',
        collection: 'clubs_g1',
        explain: { update: 'clubs_g1', updates: [{ q: { _id: 'a' }, u: { n: 1 }, upsert: true }] },
      },
      { name: 'update', collection: 'clubs_g1', explain: { update: 'clubs_g1', updates: [{ q: { _id: 'b' }, u: { $set: { n: 2 } } }] } },
    ]);
    expect(plannedCommands('delete', { delete: 'c', deletes: [{ q: { _id: 'a' }, limit: 1 }], ...session })).toEqual([
      { name: 'delete', collection: 'c', explain: { delete: 'c', deletes: [{ q: { _id: 'a' }, limit: 1 }] } },
    ]);
  });

  it('keeps what the planner reads, drops the session, write concern and time limit, and turns a Map sort into an object', () => {
    const sort = new Map<string, number>([
      ['q.nameKey', -1],
      ['_id', 1],
    ]);
    const [find] = plannedCommands('find', {
      find: 'dancers_g1',
      filter: { a: 1 },
      sort,
      hint: 'h',
      skip: 20,
      limit: 20,
      projection: { _id: 0 },
      ...session,
    });
    expect(find).toEqual({
      name: 'find',
      collection: 'dancers_g1',
      explain: {
        find: 'dancers_g1',
        filter: { a: 1 },
        sort: { 'q.nameKey': -1, _id: 1 },
        projection: { _id: 0 },
        hint: 'h',
        skip: 20,
        limit: 20,
      },
    });
    expect(Object.keys(find!.explain.sort as object)).toEqual(['q.nameKey', '_id']);
    const [aggregate] = plannedCommands('aggregate', {
      aggregate: 'c',
      pipeline: [{ $match: {} }],
      hint: 'h',
      cursor: { batchSize: 5 },
      ...session,
    });
    expect(aggregate?.explain).toEqual({ aggregate: 'c', pipeline: [{ $match: {} }], hint: 'h', cursor: {} });
  });

  it('plans nothing for commands without a query', () => {
    for (const name of ['insert', 'getMore', 'hello', 'createIndexes', 'listIndexes', 'ping'])
      expect(plannedCommands(name, { [name]: 'c' })).toEqual([]);
  });
});
