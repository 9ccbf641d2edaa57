import type { TestProject } from 'vitest/node';
import { optionsFromEnv, startLocalServers, stopLocalServers } from '../../infra/localServers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
    mongoUrl: string;
  }
}

const log = (line: string): void => void process.stderr.write(`[test servers] ${line}\n`);

/**
 * Real servers for the integration tests, once per run. KAFKA_BROKERS/MONGO_URL name external
 * ones; TEST_CONTAINERS=1 asks for containers (falling back to local servers when no container
 * runtime exists); otherwise the project's own scripts start Kafka and SecantusDB. Only what this
 * setup started is stopped at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_CONTAINERS === '1' && !process.env.KAFKA_BROKERS && !process.env.MONGO_URL) {
    try {
      const { startContainers } = await import('./startContainers.ts');
      const containers = await startContainers();
      log(`containers: kafka ${containers.kafkaBrokers}, mongo ${containers.mongoUrl}`);
      project.provide('kafkaBrokers', containers.kafkaBrokers);
      project.provide('mongoUrl', containers.mongoUrl);
      return containers.stop;
    } catch (error) {
      log(`containers unavailable (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); using local servers`);
    }
  }
  const endpoints = await startLocalServers(optionsFromEnv(process.env, log));
  log(`kafka ${endpoints.kafkaBrokers}, mongo ${endpoints.mongoUrl}`);
  project.provide('kafkaBrokers', endpoints.kafkaBrokers);
  project.provide('mongoUrl', endpoints.mongoUrl);
  return async () => {
    if (process.env.KEEP_TEST_SERVERS === '1') return;
    await stopLocalServers(endpoints.started);
  };
}
