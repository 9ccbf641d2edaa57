import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_TIMEOUT_MS } from '../../projector/consume/runConsumer.ts';
import { abandonedTransactionGoneWithinMs, readTransactionLifetimeLimit } from '../../services/mongo/index.ts';
import { testServers, uniqueName } from '../support/isolation.ts';

// What the live writer's transactions rest on (MongoProjectionStore.liveTransactions): a process
// killed with a transaction open leaves its documents locked until the server aborts that
// transaction, and the server does so within abandonedTransactionGoneWithinMs of its
// `transactionLifetimeLimitSeconds`. The project's scripts start the local server with a limit
// that keeps this inside the Kafka session timeout, after which another instance owns the
// partitions and writes those documents.

/** A child that opens a transaction, updates `_id: 'locked'` in it, says so and waits to be killed. */
const HOLDER = `
const { MongoClient } = require('mongodb');
(async () => {
  const client = await MongoClient.connect(process.argv[1]);
  const session = client.startSession();
  session.startTransaction();
  await client.db(process.argv[2]).collection('docs').updateOne({ _id: 'locked' }, { $inc: { n: 1 } }, { session });
  process.stdout.write('open\\n');
  setInterval(() => undefined, 60_000);
})();
`;

describe('a transaction left open by a killed process', () => {
  const { mongoUrl } = testServers();
  const dbName = uniqueName('test_abandoned');
  let client: MongoClient;

  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl);
    await client.db(dbName).collection<{ _id: string; n: number }>('docs').insertOne({ _id: 'locked', n: 0 });
  });
  afterAll(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  it('locks its document until the server aborts it, within the bound the live writer counts on', async () => {
    const limit = await readTransactionLifetimeLimit(client.db(dbName));
    expect(limit).not.toBeNull();
    const bound = abandonedTransactionGoneWithinMs(limit!);
    // The local servers are started so that live writes may be transactions.
    expect(bound).toBeLessThanOrEqual(DEFAULT_SESSION_TIMEOUT_MS);

    const holder = spawn(process.execPath, ['-e', HOLDER, mongoUrl, dbName], { stdio: ['ignore', 'pipe', 'inherit'] });
    await once(holder.stdout, 'data');
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const killed = performance.now();

    const docs = client.db(dbName).collection<{ _id: string; n: number }>('docs');
    let blocked = 0;
    for (;;) {
      try {
        await docs.updateOne({ _id: 'locked' }, { $inc: { n: 10 } }, { maxTimeMS: 500 });
        break;
      } catch {
        blocked += 1;
        if (performance.now() - killed > bound + 5_000) throw new Error(`still locked ${bound + 5_000} ms after the kill`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const freedAfter = performance.now() - killed;
    console.info(
      `[fault] abandoned transaction: limit ${limit} s, document freed ${Math.round(freedAfter)} ms after the kill, ${blocked} writes refused meanwhile`,
    );
    // The lock was real: the first writes after the kill were refused.
    expect(blocked).toBeGreaterThan(0);
    // Freed within the bound (a second of slack for this loop's own round trips).
    expect(freedAfter).toBeLessThan(bound + 1_000);
    // The abandoned update was rolled back, ours applied once.
    expect((await docs.findOne({ _id: 'locked' }))?.n).toBe(10);
  }, 60_000);
});
