import type { ProjectionConfig } from '../../../projector/evolve/index.ts';
import type { Harness } from '../../support/projectorHarness.ts';
import type { FaultProjectorOptions } from './faultProjectorProcess.ts';

/**
 * How a test runs its projector process: the fixed clock and projection, and how it writes and
 * logs. Its consumer group timings are production's (the configuration's defaults).
 */
export interface FaultProjectorRun {
  now: Date;
  config: ProjectionConfig;
  chunkSize: number;
  /** Its operators' port; 0 (any free one) when the test does not probe it. */
  opsPort?: number;
  logLevel?: string;
}

/** The arguments of faultProjectorProcess for a topic pair, consumer group and database on `servers`. */
export function faultProjectorOptions(
  servers: { kafkaBrokers: string[]; mongoUrl: string },
  target: Pick<Harness, 'mongo' | 'topic' | 'dlqTopic' | 'groupId'>,
  run: FaultProjectorRun,
): FaultProjectorOptions {
  return {
    brokers: servers.kafkaBrokers,
    mongoUrl: servers.mongoUrl,
    db: target.mongo.db.databaseName,
    topic: target.topic,
    dlqTopic: target.dlqTopic,
    groupId: target.groupId,
    now: run.now.toISOString(),
    config: run.config,
    chunkSize: run.chunkSize,
    opsPort: run.opsPort ?? 0,
    ...(run.logLevel === undefined ? {} : { logLevel: run.logLevel }),
  };
}
