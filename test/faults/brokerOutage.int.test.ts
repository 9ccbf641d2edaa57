import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaInstance, type KafkaInstance } from '../../infra/localKafka.ts';
import { RUN } from '../../infra/paths.ts';
import { testServers } from '../support/isolation.ts';
import { freePorts } from './support/freePort.ts';
import { outageRig, printReport, type OutageRig } from './support/outageRig.ts';

// Issue 15, item 3 (broker): a private single-node Kafka under a projector process and an API
// process (the shared SecantusDB holds the read model; nothing shared is stopped). Mid-stream the
// broker is killed with SIGKILL and started again on the same data: the projector reports not
// ready, the API keeps answering from the database, and after it the projector is ready again
// without a restart and the read model equals the clean rebuild.
describe('a broker killed with SIGKILL under a running projector and API', () => {
  const runDir = join(RUN, `faults-${process.pid}`, 'kafka');
  let broker: KafkaInstance;
  let rig: OutageRig;
  const log = (line: string): void => void process.stderr.write(`[fault servers] ${line}\n`);

  beforeAll(async () => {
    const [port, controllerPort] = await freePorts(2);
    broker = kafkaInstance({ port, controllerPort, runDir, heapMb: 384 });
    await broker.start(log);
    rig = outageRig({ kafkaBrokers: broker.brokers, mongoUrl: testServers().mongoUrl });
  });
  afterAll(async () => {
    await rig?.close();
    await broker?.stop(10_000);
    rmSync(join(runDir, '..'), { recursive: true, force: true });
  });

  it('killed (SIGKILL) and started again on the same data', async () => {
    const report = await rig.run({
      name: 'broker killed and restarted',
      databaseAway: false,
      // Past the consumer's session timeout (6 s): the group has to be formed again.
      holdMs: 10_000,
      begin: () => void expect(broker.signal('SIGKILL')).toBe(true),
      end: async () => void (await broker.start(log)),
    });
    printReport(report);
    // The API reads only the database: it keeps answering, whole, while the broker is away.
    expect(report.apiDuring.status, report.apiDuring.body).toBe(200);
    expect(() => JSON.parse(report.apiDuring.body) as unknown).not.toThrow();
    expect(report.drift).toEqual({ missingDocuments: 0, extraDocuments: 0, differingDocuments: 0, countsLost: 0, countsDoubled: 0 });
  }, 360_000);
});
