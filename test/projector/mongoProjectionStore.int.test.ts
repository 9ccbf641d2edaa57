import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import type { ClubDocument } from '../../services/readModel/documents.ts';
import { testServers, uniqueName } from '../support/isolation.ts';

// The writer's bulks run as transactions where the server takes them (SecantusDB and a replica
// set do): one commit instead of one per statement. A lost guard aborts a transaction, so such a
// bulk runs again without one; what lands must be exactly what the unguarded-by-transaction
// bulk gave: every op whose guard holds, and the lost ones reported.
describe('the Mongo projection store on a server with transactions', () => {
  const { mongoUrl } = testServers();
  let client: MongoClient;
  let store: MongoProjectionStore;
  const dbName = uniqueName('test_store');
  const commands: CommandStartedEvent[] = [];
  const club = (id: string, name: string): ClubDocument => ({ _id: id, name }) as unknown as ClubDocument;

  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl, { monitorCommands: true });
    client.on('commandStarted', (event) => commands.push(event));
    // A rebuild's generation: the live one is written in transactions only where that is safe (below).
    store = new MongoProjectionStore(client.db(dbName), 1, { live: false });
  });
  afterAll(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  const sent = (name: string): CommandStartedEvent[] => commands.filter((c) => c.commandName === name);
  const stored = async (): Promise<unknown[]> =>
    client
      .db(dbName)
      .collection(store.names.read.clubs)
      .find({}, { projection: { _id: 1, name: 1, rev: 1 } })
      .sort({ _id: 1 })
      .toArray();

  it('writes a bulk in one committed transaction', async () => {
    commands.length = 0;
    const written = await store.writeDerived('clubs', [
      { id: 'a', value: club('a', 'A2'), rev: 2 },
      { id: 'b', value: club('b', 'B1'), rev: 1 },
    ]);
    expect(written).toEqual(new Set(['a', 'b']));
    expect(sent('update')).toHaveLength(1);
    expect(sent('update')[0]!.command.autocommit).toBe(false);
    expect(sent('commitTransaction')).toHaveLength(1);
    expect(await stored()).toEqual([
      { _id: 'a', name: 'A2', rev: 2 },
      { _id: 'b', name: 'B1', rev: 1 },
    ]);
  });

  // A live bulk is a transaction only while the server aborts an abandoned one before the Kafka
  // session hands a dead instance's partitions on: else that instance's open transaction would
  // lock the documents the new owner writes for as long as the server keeps it.
  it.each([
    { limitSeconds: 60, withinMs: 6_000, transaction: false },
    { limitSeconds: 3, withinMs: undefined, transaction: false },
    { limitSeconds: 3, withinMs: 6_000, transaction: true },
    { limitSeconds: 4, withinMs: 6_000, transaction: true },
    { limitSeconds: 5, withinMs: 6_000, transaction: false },
  ])(
    'writes a live bulk as a transaction: $transaction, when the server reaps after $limitSeconds s and the session is $withinMs ms',
    async ({ limitSeconds, withinMs, transaction }) => {
      const admin = client.db('admin');
      const { transactionLifetimeLimitSeconds: before } = await admin.command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 });
      await admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: limitSeconds });
      try {
        const live = new MongoProjectionStore(client.db(dbName), 1, withinMs === undefined ? {} : { liveTransactionsWithinMs: withinMs });
        expect(await live.liveTransactions()).toBe(transaction);
        commands.length = 0;
        expect(await live.writeDerived('clubs', [{ id: 'd', value: club('d', 'D1'), rev: 1 }])).toEqual(new Set(['d']));
        expect(sent('update').map((c) => c.command.autocommit as unknown)).toEqual([transaction ? false : undefined]);
        expect(sent('commitTransaction')).toHaveLength(transaction ? 1 : 0);
      } finally {
        await admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: before as number });
        await client
          .db(dbName)
          .collection(store.names.read.clubs)
          .deleteOne({ _id: 'd' as never });
      }
    },
  );

  it('runs a bulk whose guard lost again without a transaction: the others land, the lost one is reported', async () => {
    commands.length = 0;
    const written = await store.writeDerived('clubs', [
      { id: 'a', value: club('a', 'A1, older'), rev: 1 },
      { id: 'b', value: club('b', 'B3'), rev: 3 },
      { id: 'c', value: club('c', 'C1'), rev: 1 },
    ]);
    expect(written).toEqual(new Set(['b', 'c']));
    expect(sent('commitTransaction')).toHaveLength(0);
    // In a transaction a statement carries autocommit: false; a retryable write alone does not.
    expect(sent('update').map((c) => c.command.autocommit === false)).toEqual([true, false]);
    expect(await stored()).toEqual([
      { _id: 'a', name: 'A2', rev: 2 },
      { _id: 'b', name: 'B3', rev: 3 },
      { _id: 'c', name: 'C1', rev: 1 },
    ]);
  });
});
