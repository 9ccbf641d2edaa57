import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs no servers; `integration` gets real Kafka and a real MongoDB-wire
// server from test/setup/globalSetup.ts (external ones when KAFKA_BROKERS/MONGO_URL are set).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['**/*.unit.test.ts'],
          exclude: ['node_modules/**', 'dist/**', '.tools/**'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['**/*.int.test.ts'],
          exclude: ['node_modules/**', 'dist/**', '.tools/**'],
          globalSetup: ['test/setup/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file owns its database and topic, so files may run side by side; two workers
          // match the two cores CI has.
          maxWorkers: 2,
        },
      },
    ],
  },
});
