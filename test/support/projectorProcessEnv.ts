import { freePorts } from '../faults/support/freePort.ts';
import { testServers } from './isolation.ts';
import type { Harness } from './projectorHarness.ts';

/**
 * The environment of a real projector process (projector/main.ts, projector/rebuild.ts) on the
 * test servers, reading `target`'s topic and writing its database in its group, with an
 * operators' port of its own; `extra` adds or overrides variables.
 */
export async function projectorProcessEnv(
  target: Pick<Harness, 'mongo' | 'topic' | 'groupId'>,
  extra: NodeJS.ProcessEnv = {},
): Promise<NodeJS.ProcessEnv> {
  const [opsPort] = await freePorts(1);
  const { kafkaBrokers, mongoUrl } = testServers();
  return {
    ...process.env,
    LOG_LEVEL: 'warn',
    MONGO_URL: mongoUrl,
    MONGO_DB: target.mongo.db.databaseName,
    KAFKA_BROKERS: kafkaBrokers.join(','),
    KAFKA_TOPIC: target.topic,
    KAFKA_GROUP_ID: target.groupId,
    PROJECTOR_OPS_PORT: String(opsPort),
    OPS_HOST: '127.0.0.1',
    ...extra,
  };
}
