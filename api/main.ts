// The API process: serves the read model over HTTP under the configured base path.
import { loadConfig } from '../services/config/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo, readMeta } from '../services/mongo/index.ts';
import { startOpsServer } from '../services/ops/index.ts';
import { runMain } from '../services/runMain.ts';
import { shutdownOnSignal } from '../services/shutdown.ts';
import { recentReadiness } from '../services/ops/recentReadiness.ts';
import { createApiServer } from './apiServer.ts';
import { createApp } from './createApp.ts';
import { sharedRateLimitStore } from './http/sharedRateLimitStore.ts';

runMain('api', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('api', config.logLevel);
  // Closed newest first: the HTTP server stops taking connections and its in-flight requests
  // finish before the database and Redis close.
  const shutdown = shutdownOnSignal(logger);
  const registry = createRegistry('api');
  // A database that stops answering (paused, partitioned) fails a request one second after its
  // query time limit (503), instead of holding it open forever.
  const mongo = await connectMongo(config.mongo.url, config.mongo.db, {
    socketTimeoutMs: config.api.queryTimeoutMs + 1000,
    metrics: registry,
  });
  shutdown.add('mongo', () => mongo.close());
  // One recent check serves the public port and the operators' port alike: probes on either, at
  // any rate, cost the database at most one ping a second.
  // An instance older than the read model's format (a rolling upgrade's last old ones) is not
  // ready, so the balancer sends requests to those that read it right.
  const readiness = recentReadiness(async () => {
    const mongoUp = await mongo.ping();
    const format = mongoUp && (await readMeta(mongo.db)).layout !== null;
    return { ready: mongoUp && format, checks: { mongo: mongoUp, format } };
  });
  // With REDIS_URL every instance spends one budget per client IP; Redis is not part of
  // readiness, since an instance without it still limits alone in memory.
  const sharedLimit = config.api.redisUrl
    ? sharedRateLimitStore({
        url: config.api.redisUrl,
        limit: config.api.rateLimitMax,
        windowSeconds: config.api.rateLimitWindowSeconds,
        logger,
        metrics: registry,
      })
    : undefined;
  if (sharedLimit) shutdown.add('redis', async () => sharedLimit.close());
  // Info, not a warning: the fallback store warns once when a request finds Redis down.
  if (sharedLimit && !(await sharedLimit.ready(2000)))
    logger.info('Redis does not answer yet; the rate limit counts in memory until it does');
  const app = createApp({
    config,
    logger,
    readiness,
    db: mongo.db,
    metrics: registry,
    ...(sharedLimit ? { rateLimitStore: sharedLimit.store } : {}),
  });
  const handle = app.callback();
  // Behind trusted proxies every socket address is a proxy's: a cap per address would be one cap
  // for all clients, so the per-client cap is left to the proxy there (docs/calling.md, "CORS and connections").
  const server = createApiServer((req, res) => void handle(req, res), {
    metrics: registry,
    connectionsPerClient: config.api.trustedProxyCount > 0 ? null : config.api.connectionsPerClient,
    stalledResponseTimeoutMs: config.api.stalledResponseTimeoutMs,
  });
  shutdown.add('http server', () => new Promise((resolve) => server.close(resolve)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.api.port, config.api.host, () => resolve());
  });
  const ops = await startOpsServer({ host: config.opsHost, port: config.api.opsPort, registry, readiness });
  shutdown.add('ops server', () => new Promise((resolve) => ops.close(resolve)));
  logger.info(
    { url: `${config.api.publicUrl}${config.api.basePath}`, ops: `http://${config.opsHost}:${config.api.opsPort}` },
    'api started',
  );
});
