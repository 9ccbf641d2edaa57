import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META_COLLECTION, readMeta } from '../../services/mongo/index.ts';
import { READ_MODEL_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { idsIn, openDatabase, startApi, type Database, type Reply } from './apiHarness.ts';
import { NOW, clubs, people, registryEvents } from './registrySeed.ts';

// While a projector upgrades a model to the current format, the API serves the generation of the
// format before it, in that format's layout (its filters and index plan). A generation of any
// other format (older than that, or newer than this code) is not read: its listings answer 503
// until the upgrade has switched, as readiness says. The generation is written by the current
// projector; its meta then records the format under test.

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

/** The live generation's meta says it was built in `format`. */
async function recordFormat(format: number): Promise<void> {
  await database.db.collection<{ _id: string }>(META_COLLECTION).updateOne({ _id: 'current' }, { $set: { format } });
}

describe('the formats the API serves: the current one and the one before it', () => {
  let current: Reply[];
  let previous: Reply[];
  let older: Reply[];
  let newer: Reply[];

  beforeAll(async () => {
    database = await openDatabase('api_served_formats');
    await database.project(registryEvents, NOW);
    expect((await readMeta(database.db)).format).toBe(READ_MODEL_FORMAT);
    current = await answers();
    await recordFormat(READ_MODEL_FORMAT - 1);
    previous = await answers();
    await recordFormat(READ_MODEL_FORMAT - 2);
    older = await answers();
    await recordFormat(READ_MODEL_FORMAT + 1);
    newer = await answers();
    await recordFormat(READ_MODEL_FORMAT);
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
    expect(current.filter((reply) => idsIn(reply.json).length > 0).length).toBeGreaterThan(PATHS.length / 2);
  });

  it('the format before it answers every search, countryId and country request as the current one', () => {
    for (const [i, path] of PATHS.entries()) {
      expect(previous[i]!.status, `${path}: ${previous[i]!.text}`).toBe(200);
      expect(previous[i]!.json, path).toEqual(current[i]!.json);
    }
  });

  it('a generation of an older or a newer format answers 503 with Retry-After on every listing', () => {
    for (const [label, replies] of [
      ['older', older],
      ['newer', newer],
    ] as const) {
      for (const [i, path] of PATHS.entries()) {
        expect(replies[i]!.status, `${label} ${path}: ${replies[i]!.text}`).toBe(503);
        expect(replies[i]!.headers.get('retry-after'), `${label} ${path}`).toBe('5');
        expect(replies[i]!.json.error.type, `${label} ${path}`).toBe('SERVICE_UNAVAILABLE');
      }
    }
  });
});
