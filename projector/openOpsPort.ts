import type { Admin } from 'kafkajs';
import type { Registry } from 'prom-client';
import type { Config } from '../services/config/index.ts';
import type { MongoConnection } from '../services/mongo/index.ts';
import { startOpsServer } from '../services/ops/index.ts';
import type { Shutdown } from '../services/shutdown.ts';
import type { PartitionStall } from './metrics/partitionProgress.ts';
import { projectorReadiness } from './projectorReadiness.ts';
import type { RunningProjector } from './runProjector.ts';

/**
 * Opens the operators' port (metrics, health) before the bootstrap or a format upgrade, which
 * may take many minutes: Prometheus sees the instance up (not "no projector"), not ready, and
 * bootstrapping or upgrading, with the replay's progress. `started` hands it the projector once
 * its consumer runs.
 */
export async function openOpsPort(deps: {
  config: Readonly<Config>;
  registry: Registry;
  mongo: MongoConnection;
  admin: Admin;
  shutdown: Shutdown;
  partitions?: { stalled(): PartitionStall[] };
}): Promise<{ started(projector: RunningProjector): void }> {
  let running: RunningProjector | undefined;
  const ops = await startOpsServer({
    host: deps.config.opsHost,
    port: deps.config.projector.opsPort,
    registry: deps.registry,
    readiness: projectorReadiness({
      mongo: deps.mongo,
      admin: deps.admin,
      projector: { isRunning: () => running?.isRunning() ?? false },
      partitions: deps.partitions,
    }),
    live: () => running?.isLive() ?? true,
  });
  deps.shutdown.add('ops server', () => new Promise((resolve) => ops.close(resolve)));
  return { started: (projector) => (running = projector) };
}
