import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionCollections } from '../../projector/write/projectionCollections.ts';
import { META_COLLECTION, readMeta } from '../../services/mongo/index.ts';
import { countryIdKey, type ClubDocument, type DancerDocument } from '../../services/readModel/index.ts';
import { ensureReadModelIndexes, readCollectionIndexes } from '../../services/readModel/indexPlan.ts';
import { READ_MODEL_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { idsIn, openDatabase, startApi, type Database, type Reply } from './apiHarness.ts';
import { NOW, clubs, people, registryEvents } from './registrySeed.ts';

// While a projector upgrades a model to the current format, the API serves the older generation:
// its `search`, `countryId` and `country` filters must read that generation's keys and hint its
// indexes. Format 2 is the current documents with the search keys in `q` instead of `s`; format 1
// is format 2's without the id keys in `q.country`, and with `q.countryIds` on the clubs. The
// generation is written by the current projector and then turned into what the older projector
// wrote (a few fields each, below), its meta records that format, and it carries that format's
// indexes.

const PATHS = [
  '/dancers?countryId=68',
  '/dancers?country=ee',
  '/dancers?country=Estonia&sort=approvedAt&order=desc',
  '/dancers?countryId=117&sort=name&order=desc',
  '/dancers?countryId=68&country=EE',
  '/dancers?countryId=68&country=LV',
  '/dancers?search=kaln&status=INACTIVE&sex=FEMALE&country=LV',
  '/dancers?countryId=999',
  '/coaches?country=lv&sex=MALE',
  '/coaches?countryId=117&sort=approvedAt',
  '/coaches?countryId=68',
  '/judges?countryId=130',
  '/judges?country=Lithuania&sort=approvedAt&order=desc',
  '/clubs?country=EE',
  '/clubs?country=estonia&sort=approvedAt',
  '/clubs?countryId=117',
  '/clubs?countryId=68&sort=name&order=desc',
  '/clubs?search=aurora&countryId=68',
  '/clubs?countryId=68&registryState=REGISTRY,ARCHIVE',
  '/dancers?search=petr&sort=approvedAt',
  '/dancers?search=pe',
  '/coaches?search=ozol',
  '/clubs?search=au&sort=name&order=desc',
];

let database: Database;

async function answers(): Promise<Reply[]> {
  const api = await startApi(database.db, NOW);
  try {
    const replies: Reply[] = [];
    for (const path of PATHS) replies.push(await api.request(`/api/v1${path}`));
    return replies;
  } finally {
    await api.close();
  }
}

/** The live generation as the projector of `format` wrote and indexed it, and its meta saying so. */
async function asFormat(format: 1 | 2): Promise<void> {
  const { db } = database;
  const names = projectionCollections((await readMeta(db)).generation);
  await searchKeysIntoQ(names);
  if (format === 1) await countryKeysOfFormatOne(names);
  for (const listing of Object.keys(names.read) as Array<keyof typeof names.read>) await db.collection(names.read[listing]).dropIndexes();
  await ensureReadModelIndexes(db, names, undefined, format);
  await db.collection<{ _id: string }>(META_COLLECTION).updateOne({ _id: 'current' }, { $set: { format } });
}

/** Formats 1 and 2 kept the search keys in `q` (format 3 gave them `s`). */
async function searchKeysIntoQ(names: ReturnType<typeof projectionCollections>): Promise<void> {
  for (const listing of Object.keys(names.read) as Array<keyof typeof names.read>) {
    await database.db
      .collection(names.read[listing])
      .updateMany({ s: { $exists: true } }, [{ $set: { 'q.tokens': '$s.tokens', 'q.text': '$s.text' } }, { $unset: 's' }]);
  }
}

/** Format 1: no id key in `q.country`, and `q.countryIds` on the clubs. */
async function countryKeysOfFormatOne(names: ReturnType<typeof projectionCollections>): Promise<void> {
  const { db } = database;
  for (const listing of ['dancers', 'coaches', 'judges'] as const) {
    const people = db.collection<DancerDocument>(names.read[listing]);
    for (const doc of await people.find({}).toArray()) {
      const idKeys = doc.country ? [countryIdKey(doc.country.id)] : [];
      await people.updateOne({ _id: doc._id }, { $set: { 'q.country': doc.q.country.filter((key) => !idKeys.includes(key)) } });
    }
  }
  const clubDocs = db.collection<ClubDocument>(names.read.clubs);
  for (const doc of await clubDocs.find({}).toArray()) {
    const ids = [...new Set(doc.locations.flatMap((l) => (l.country ? [l.country.id] : [])))];
    const idKeys = ids.map(countryIdKey);
    await clubDocs.updateOne(
      { _id: doc._id },
      { $set: { 'q.countryIds': ids, 'q.country': doc.q.country.filter((key) => !idKeys.includes(key)) } },
    );
  }
}

describe('search and country filters on generations of formats 1 and 2, served while the upgrade runs', () => {
  let current: Reply[];
  let formatTwo: Reply[];
  let formatOne: Reply[];

  beforeAll(async () => {
    database = await openDatabase('api_country_formats');
    await database.project(registryEvents, NOW);
    expect((await readMeta(database.db)).format).toBe(READ_MODEL_FORMAT);
    current = await answers();
    await asFormat(2);
    formatTwo = await answers();
    await asFormat(1);
    formatOne = await answers();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('the current format answers from the id keys', () => {
    const ids = (path: string) => idsIn(current[PATHS.indexOf(path)]!.json);
    expect(ids('/dancers?countryId=68')).toEqual(people.petrov.slice(1).concat(people.petrov[0]!));
    expect(ids('/dancers?countryId=68&country=EE')).toEqual(ids('/dancers?countryId=68'));
    expect(ids('/dancers?countryId=68&country=LV')).toEqual([]);
    expect(ids('/judges?countryId=130')).toEqual([people.judge]);
    expect(ids('/clubs?countryId=117')).toEqual([clubs.aurora]);
    expect(ids('/clubs?search=aurora&countryId=68')).toEqual([clubs.aurora]);
  });

  it('the generation holds what format 1 wrote: search keys in q, no id key in q.country, q.countryIds on the clubs, its indexes', async () => {
    const names = projectionCollections((await readMeta(database.db)).generation);
    expect(await database.db.collection(names.read.dancers).countDocuments({ s: { $exists: true } })).toBe(0);
    expect(await database.db.collection(names.read.dancers).countDocuments({ 'q.tokens': 'pet' })).toBeGreaterThan(0);
    expect(await database.db.collection(names.read.dancers).countDocuments({ 'q.country': countryIdKey(68) })).toBe(0);
    expect(await database.db.collection(names.read.clubs).countDocuments({ 'q.countryIds': 68 })).toBeGreaterThan(0);
    const indexes = (await database.db.collection(names.read.dancers).listIndexes().toArray()).map((i) => String(i.name));
    expect(indexes.sort()).toEqual(['_id_', ...readCollectionIndexes('dancers', 1).map((i) => String(i.name))].sort());
  });

  it('answers every search, countryId and country request as it did on the current format', () => {
    for (const [i, path] of PATHS.entries()) {
      for (const [format, replies] of [
        [2, formatTwo],
        [1, formatOne],
      ] as const) {
        expect(replies[i]!.status, `format ${format} ${path}: ${replies[i]!.text}`).toBe(200);
        expect(replies[i]!.json, `format ${format} ${path}`).toEqual(current[i]!.json);
      }
    }
    expect(current.filter((reply) => idsIn(reply.json).length > 0).length).toBeGreaterThan(PATHS.length / 2);
  });
});
