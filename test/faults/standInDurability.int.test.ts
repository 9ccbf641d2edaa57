import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { secantusDbInstance, type SecantusDbInstance } from '../../infra/localSecantusDb.ts';
import { RUN } from '../../infra/paths.ts';
import { waitFor } from '../support/waitFor.ts';
import { freePort } from './support/freePort.ts';

// Issue 15, item 3 (what the local stand-in loses by itself): a private SecantusDB killed with
// SIGKILL while writers have `w: majority, j: true` inserts in flight, started again on the same
// data; every insert it acknowledged must still be there. The project starts it with
// --sync-on-commit (the WiredTiger log is fsynced on every commit) for exactly this; the same
// probe without the flag shows what the flag buys. This measures the server, not our code.
const WRITERS = 8;
const KILL_AFTER_ACKS = 400;
const ROUNDS = 3;

interface Round {
  acknowledged: number;
  lost: number;
}

async function killUnderWrites(database: SecantusDbInstance, round: number): Promise<Round> {
  const client = new MongoClient(database.url, { serverSelectionTimeoutMS: 2000, connectTimeoutMS: 2000, retryWrites: false });
  await client.connect();
  const collection = client.db('durability').collection<{ _id: string; round: number; pad: string }>('acks');
  const acknowledged: string[] = [];
  let killed = false;
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; !killed; i += 1) {
      const _id = `${round}-${w}-${i}`;
      try {
        await collection.insertOne({ _id, round, pad: 'x'.repeat(200) }, { writeConcern: { w: 'majority', j: true } });
        acknowledged.push(_id);
      } catch {
        return; // the server is gone: this write was never acknowledged
      }
      if (acknowledged.length >= KILL_AFTER_ACKS && !killed) {
        killed = true;
        database.signal('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  await client.close(true).catch(() => undefined);
  // SIGKILL is delivered, not finished: writers whose replies were already read can all return
  // while the process still exits, and start() on a server still ours is a no-op (CI once
  // connected to nothing here). Start again only once it is gone.
  await waitFor(() => Promise.resolve(expect(database.isOurs()).toBe(false)), 10_000, 50);
  await database.start(() => undefined);
  const after = new MongoClient(database.url, { serverSelectionTimeoutMS: 5000 });
  await after.connect();
  try {
    const present = new Set(
      (
        await after
          .db('durability')
          .collection<{ _id: string }>('acks')
          .find({ round }, { projection: { _id: 1 } })
          .toArray()
      ).map((d) => d._id),
    );
    return { acknowledged: acknowledged.length, lost: acknowledged.filter((id) => !present.has(id)).length };
  } finally {
    await after.close();
  }
}

async function probe(syncOnCommit: boolean, runDir: string): Promise<Round[]> {
  const database = secantusDbInstance({ port: await freePort(), runDir, cacheSize: '128M', syncOnCommit });
  await database.start(() => undefined);
  try {
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) rounds.push(await killUnderWrites(database, round));
    return rounds;
  } finally {
    await database.stop(5000);
  }
}

describe('the local SecantusDB killed with SIGKILL under acknowledged j:true, w:majority writes', () => {
  const base = join(RUN, `faults-${process.pid}-durability`);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('keeps every acknowledged write when started with --sync-on-commit (and reports without it)', async () => {
    const synced = await probe(true, join(base, 'synced'));
    const unsynced = await probe(false, join(base, 'unsynced'));
    console.info(
      `[fault] stand-in kill -9 under j:true writes: --sync-on-commit ${JSON.stringify(synced)}; without it ${JSON.stringify(unsynced)}`,
    );
    for (const round of synced) expect(round.acknowledged).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(synced.map((r) => r.lost)).toEqual(synced.map(() => 0));
  }, 180_000);
});
