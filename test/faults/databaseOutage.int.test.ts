import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secantusDbInstance, type SecantusDbInstance } from '../../infra/localSecantusDb.ts';
import { RUN } from '../../infra/paths.ts';
import { testServers } from '../support/isolation.ts';
import { freePort } from './support/freePort.ts';
import { expectCompleteUnavailable, outageRig, printReport, type OutageRig } from './support/outageRig.ts';

// Issue 15, item 3 (database): a private SecantusDB under a projector process and an API process
// (the shared Kafka carries the events; nothing shared is stopped). Mid-stream the database is
// stopped and started again on the same data, then paused with SIGSTOP for longer than the
// driver's timeouts: both processes report not ready, the API answers a complete 503 with
// Retry-After, and after it both are ready again without a restart and the read model equals
// the clean rebuild. Killed with SIGKILL too: there what survives rests on the stand-in's durability.
const zero = { missingDocuments: 0, extraDocuments: 0, differingDocuments: 0, countsLost: 0, countsDoubled: 0 };

describe('database outages under a running projector and API', () => {
  const runDir = join(RUN, `faults-${process.pid}`, 'secantusdb');
  let database: SecantusDbInstance;
  let rig: OutageRig;
  const log = (line: string): void => void process.stderr.write(`[fault servers] ${line}\n`);

  beforeAll(async () => {
    database = secantusDbInstance({ port: await freePort(), runDir, cacheSize: '256M' });
    await database.start(log);
    rig = outageRig({ kafkaBrokers: testServers().kafkaBrokers, mongoUrl: database.url });
  });
  afterAll(async () => {
    await rig?.close();
    database?.signal('SIGCONT');
    await database?.stop(5000);
    rmSync(join(runDir, '..'), { recursive: true, force: true });
  });

  it('stopped (SIGTERM) and started again on the same data', async () => {
    const report = await rig.run({
      name: 'database stopped and restarted',
      databaseAway: true,
      holdMs: 10_000,
      begin: async () => void (await database.stop(10_000)),
      end: async () => void (await database.start(log)),
    });
    printReport(report);
    expectCompleteUnavailable(report.apiDuring);
    expect(report.drift).toEqual(zero);
  }, 360_000);

  it('killed (SIGKILL) and started again on the same data', async () => {
    // What our code adds to the stand-in's own durability (standInDurability.int.test.ts): the
    // offsets are committed only after acknowledged writes, so nothing is lost or doubled here.
    const report = await rig.run({
      name: 'database killed and restarted',
      databaseAway: true,
      holdMs: 8_000,
      begin: () => void expect(database.signal('SIGKILL')).toBe(true),
      end: async () => void (await database.start(log)),
    });
    printReport(report);
    expectCompleteUnavailable(report.apiDuring);
    expect(report.drift).toEqual(zero);
  }, 360_000);

  it("paused (SIGSTOP) for longer than the driver's timeouts, then resumed", async () => {
    const report = await rig.run({
      name: 'database paused 20 s',
      databaseAway: true,
      // Past serverSelectionTimeoutMS and connectTimeoutMS (5 s), the monitor's heartbeat (10 s)
      // and the API's socket timeout (query limit + 1 s).
      holdMs: 20_000,
      begin: () => void expect(database.signal('SIGSTOP')).toBe(true),
      end: () => void expect(database.signal('SIGCONT')).toBe(true),
    });
    printReport(report);
    expectCompleteUnavailable(report.apiDuring);
    expect(report.drift).toEqual(zero);
  }, 360_000);
});
