import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isContentError } from '../../projector/consume/isContentError.ts';
import { isInfrastructureError } from '../../projector/consume/isInfrastructureError.ts';
import { connectMongo, type MongoConnection } from '../../services/mongo/index.ts';
import { testServers, uniqueName } from '../support/isolation.ts';

// What the real database and driver throw for a document they refuse for its content is taken
// for a content error (dead-lettered), never for one of availability (retried for ever).

/** Over 16 MiB of BSON: 360,000 uuids of 48 bytes each. */
const tooLarge = (id: string): { _id: string; ids: string[] } => ({
  _id: id,
  ids: Array.from({ length: 360_000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`),
});

const tooDeep = (id: string): { _id: string; deep: unknown } => {
  let deep: unknown = 'bottom';
  for (let i = 0; i < 250; i++) deep = { a: deep };
  return { _id: id, deep };
};

async function refusal(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error('the database took the document');
}

describe("the database's refusals of a document's content", () => {
  let mongo: MongoConnection;
  beforeAll(async () => {
    mongo = await connectMongo(testServers().mongoUrl, uniqueName('content_errors'));
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  it('are content errors, from the server (BSONObjectTooLarge, nesting) and from the driver (a document past its limit)', async () => {
    const docs = mongo.db.collection<{ _id: string }>('docs');
    const refusals = [
      await refusal(() => docs.insertOne(tooLarge('server-large'))),
      await refusal(() =>
        docs.bulkWrite([{ replaceOne: { filter: { _id: 'driver-large' }, replacement: tooLarge('driver-large'), upsert: true } }]),
      ),
      await refusal(() => docs.insertMany([tooLarge('many-large')])),
      await refusal(() => docs.insertOne(tooDeep('server-deep'))),
      await refusal(() => docs.bulkWrite([{ insertOne: { document: tooDeep('bulk-deep') } }], { ordered: false })),
    ];
    for (const error of refusals) {
      expect([String(error), isContentError(error), isInfrastructureError(error)]).toEqual([String(error), true, false]);
    }
    expect(await docs.countDocuments()).toBe(0);
  }, 60_000);
});
