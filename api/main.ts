// The API process: serves the read model over HTTP under the configured base path.
import { createServer } from 'node:http';
import { loadConfig } from '../services/config/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo } from '../services/mongo/index.ts';
import { startOpsServer } from '../services/ops/index.ts';
import { runMain } from '../services/runMain.ts';
import { onShutdown } from '../services/shutdown.ts';
import { createApp } from './createApp.ts';

runMain('api', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('api', config.logLevel);
  const registry = createRegistry('api');
  // A database that stops answering (paused, partitioned) fails a request one second after its
  // query time limit (503), instead of holding it open forever.
  const mongo = await connectMongo(config.mongo.url, config.mongo.db, { socketTimeoutMs: config.api.queryTimeoutMs + 1000 });
  const readiness = async (): Promise<{ ready: boolean; checks: Record<string, boolean> }> => {
    const mongoUp = await mongo.ping();
    return { ready: mongoUp, checks: { mongo: mongoUp } };
  };
  const app = createApp({ config, logger, readiness, db: mongo.db, metrics: registry });
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.api.port, config.api.host, () => resolve());
  });
  const ops = await startOpsServer({ host: config.opsHost, port: config.api.opsPort, registry, readiness });
  logger.info({ url: `${config.api.publicUrl}${config.api.basePath}`, ops: `http://${config.opsHost}:${config.api.opsPort}` }, 'api started');

  onShutdown(logger, [
    // Stop taking connections first; in-flight requests finish before the database closes.
    { name: 'http server', close: () => new Promise((resolve) => server.close(resolve)) },
    { name: 'ops server', close: () => new Promise((resolve) => ops.close(resolve)) },
    { name: 'mongo', close: () => mongo.close() },
  ]);
});
