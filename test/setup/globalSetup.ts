import type { TestProject } from 'vitest/node';
import { optionsFromEnv, startLocalServers, stopLocalServers } from '../../infra/localServers.ts';
import { localRedisUrl, startRedis, stopRedis } from '../../infra/localRedis.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
    mongoUrl: string;
    /** Redis of the shared rate limit (REDIS_URL, or the local one). */
    redisUrl: string;
  }
}

const log = (line: string): void => void process.stderr.write(`[test servers] ${line}\n`);

/**
 * Real servers for the integration tests, once per run. KAFKA_BROKERS/MONGO_URL/REDIS_URL name
 * external ones; TEST_CONTAINERS=1 asks for containers (falling back to local servers when no
 * container runtime exists); otherwise the project's own scripts start Kafka, SecantusDB and
 * Redis. Only what this setup started is stopped at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_CONTAINERS === '1' && !process.env.KAFKA_BROKERS && !process.env.MONGO_URL) {
    try {
      const { startContainers } = await import('./startContainers.ts');
      const containers = await startContainers();
      log(`containers: kafka ${containers.kafkaBrokers}, mongo ${containers.mongoUrl}`);
      project.provide('kafkaBrokers', containers.kafkaBrokers);
      project.provide('mongoUrl', containers.mongoUrl);
      // Redis needs no container: REDIS_URL, or the project's local redis-server.
      const opts = optionsFromEnv(process.env, log);
      const redisStarted = opts.redisUrl
        ? false
        : await startRedis(opts.redisPort, log).catch(async (error: unknown) => {
            await containers.stop();
            throw error;
          });
      project.provide('redisUrl', opts.redisUrl ?? localRedisUrl(opts.redisPort));
      return async () => {
        await containers.stop();
        if (redisStarted && process.env.KEEP_TEST_SERVERS !== '1') await stopRedis();
      };
    } catch (error) {
      log(`containers unavailable (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); using local servers`);
    }
  }
  const endpoints = await startLocalServers(optionsFromEnv(process.env, log));
  log(`kafka ${endpoints.kafkaBrokers}, mongo ${endpoints.mongoUrl}, redis ${endpoints.redisUrl}`);
  project.provide('kafkaBrokers', endpoints.kafkaBrokers);
  project.provide('mongoUrl', endpoints.mongoUrl);
  project.provide('redisUrl', endpoints.redisUrl);
  return async () => {
    if (process.env.KEEP_TEST_SERVERS === '1') return;
    await stopLocalServers(endpoints.started);
  };
}
