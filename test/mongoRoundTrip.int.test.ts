import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META_COLLECTION, bumpVersions, connectMongo, ensureMeta, readMeta, type MongoConnection } from '../services/mongo/index.ts';
import { READ_MODEL_FORMAT } from '../services/readModel/readModelFormat.ts';
import { layoutOf } from '../services/readModel/readModelLayout.ts';
import { testServers, uniqueName } from './support/isolation.ts';

describe('real MongoDB-wire server', () => {
  const { mongoUrl } = testServers();
  let mongo: MongoConnection;

  beforeAll(async () => {
    mongo = await connectMongo(mongoUrl, uniqueName('test_roundtrip'));
  });
  afterAll(async () => {
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  it('answers ping', async () => {
    expect(await mongo.ping()).toBe(true);
  });

  it('writes, reads, upserts idempotently and enforces a unique index', async () => {
    const docs = mongo.db.collection<{ _id: string; name: string; n: number }>('things');
    await docs.createIndex({ name: 1 }, { unique: true });
    await docs.insertOne({ _id: 'a', name: 'Jānis', n: 1 });
    for (let i = 0; i < 2; i++) await docs.updateOne({ _id: 'b' }, { $set: { name: 'Anna', n: 2 } }, { upsert: true });
    expect(await docs.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', name: 'Jānis', n: 1 },
      { _id: 'b', name: 'Anna', n: 2 },
    ]);
    await expect(docs.insertOne({ _id: 'c', name: 'Anna', n: 3 })).rejects.toMatchObject({ code: 11000 });
  });

  it('reads the read-model meta without writing it (the API may hold a read-only user); the writers create it in the current format', async () => {
    // Without a meta document, nothing says the tallies hold: the API counts.
    const layout = layoutOf(READ_MODEL_FORMAT);
    expect(layout).not.toBeNull();
    expect(await readMeta(mongo.db)).toEqual({
      generation: 1,
      format: READ_MODEL_FORMAT,
      layout,
      versions: {},
      currentAt: null,
      talliesOf: null,
    });
    expect(await mongo.db.collection(META_COLLECTION).countDocuments({})).toBe(0);
    // An empty model's tallies (none, all zero) count it.
    const created = { generation: 1, format: READ_MODEL_FORMAT, layout, versions: {}, currentAt: null, talliesOf: 1 };
    expect(await ensureMeta(mongo.db)).toEqual(created);
    await bumpVersions(mongo.db, 1, ['competitions']);
    expect(await readMeta(mongo.db)).toEqual({ ...created, versions: { competitions: 1 } });
    expect(await ensureMeta(mongo.db)).toEqual({ ...created, versions: { competitions: 1 } });
  });
});
