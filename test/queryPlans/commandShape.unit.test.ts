import { describe, expect, it } from 'vitest';
import { collectionFamily, commandShape, filterShape, type PlannedCommand } from './commandShape.ts';

const find = (filter: object, extra: object = {}): PlannedCommand => ({
  name: 'find',
  collection: 'dancers_g2',
  explain: { find: 'dancers_g2', filter, ...extra },
});

describe('commandShape', () => {
  it('is the same for statements that differ only in their values or generation', () => {
    const a = find(
      { $and: [{ registryState: { $in: ['REGISTRY'] } }, { 'q.clubIds': 'a' }] },
      { sort: { 'q.nameKey': 1, _id: 1 }, hint: 'api_clubId_name_asc', limit: 20 },
    );
    const b = {
      ...find(
        { $and: [{ registryState: { $in: ['ARCHIVE'] } }, { 'q.clubIds': 'b' }] },
        { sort: { 'q.nameKey': 1, _id: 1 }, hint: 'api_clubId_name_asc', limit: 100 },
      ),
      collection: 'dancers_g7',
    };
    expect(commandShape(a)).toBe(commandShape(b));
  });

  it('tells apart fields, operators, sort directions, hints, and a limit from none', () => {
    const shapes = [
      find({ a: 1 }),
      find({ b: 1 }),
      find({ a: { $gte: 1 } }),
      find({ a: 1 }, { sort: { a: 1, _id: 1 } }),
      find({ a: 1 }, { sort: { a: -1, _id: 1 } }),
      find({ a: 1 }, { hint: 'x' }),
      find({ a: 1 }, { limit: 1 }),
      { ...find({ a: 1 }), collection: 'judges_g2' },
    ].map(commandShape);
    expect(new Set(shapes).size).toBe(shapes.length);
  });

  it('keeps what changes a plan: null, one or several values, an anchored regex, an empty list', () => {
    expect(filterShape({ a: null, b: 'x', c: 3, d: true, e: new Date(0) })).toEqual({
      a: null,
      b: '<string>',
      c: '<number>',
      d: '<boolean>',
      e: '<date>',
    });
    expect(filterShape({ a: { $in: ['x'] } })).toEqual({ a: { $in: ['<string>'] } });
    expect(filterShape({ a: { $in: ['x', 'y', 'z'] } })).toEqual({ a: { $in: ['<string>', '…'] } });
    expect(filterShape({ _id: { $in: [] } })).toEqual({ _id: { $in: [] } });
    expect(filterShape({ a: { $regex: '^ri' }, b: { $regex: 'ri' } })).toEqual({ a: { $regex: '<prefix>' }, b: { $regex: '<substring>' } });
    expect(filterShape({ $or: [{ a: 1 }, { b: { $lt: 2 } }] })).toEqual({ $or: [{ a: '<number>' }, { b: { $lt: '<number>' } }] });
  });

  it('shapes a write by its filter and the kind of update, not by the document written', () => {
    const update = (q: object, u: object, upsert = true): PlannedCommand => ({
      name: 'update',
      collection: 'clubs_g1',
      explain: { update: 'clubs_g1', updates: [{ q, u, upsert }] },
    });
    expect(commandShape(update({ _id: 'a', rev: { $lt: 2 } }, { name: 'A' }))).toBe(
      commandShape(update({ _id: 'b', rev: { $lt: 9 } }, { name: 'B', more: 1 })),
    );
    expect(commandShape(update({ _id: 'a' }, { name: 'A' }))).not.toBe(commandShape(update({ _id: 'a' }, { $set: { name: 'A' } })));
    expect(commandShape(update({ _id: 'a' }, { name: 'A' }))).not.toBe(commandShape(update({ _id: 'a' }, { name: 'A' }, false)));
  });

  it('folds generations into the collection family', () => {
    expect(collectionFamily('member_links_g12')).toBe('member_links');
    expect(collectionFamily('read_model_meta')).toBe('read_model_meta');
  });
});
