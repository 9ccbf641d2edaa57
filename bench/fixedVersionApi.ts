// A diagnostic twin of api/main.ts for bench/api.ts: the same app, whose read-model version is
// read once at start instead of once per wave of requests. It shows what the cache path costs
// in the API itself, without the per-request round trip to the database that keeps the real API
// strict (an edit visible on the very next request). Never a way to run the service.
//   node bench/fixedVersionApi.ts   (configured by the same environment as the API)
import { createServer } from 'node:http';
import { createApp } from '../api/createApp.ts';
import { ReadModelSource } from '../api/readModelSource.ts';
import { loadConfig } from '../services/config/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo, readMeta } from '../services/mongo/index.ts';

const config = loadConfig(process.env);
const mongo = await connectMongo(config.mongo.url, config.mongo.db);
const meta = await readMeta(mongo.db);
const app = createApp({
  config,
  logger: createLogger('api-fixed-version', config.logLevel),
  readiness: () => Promise.resolve({ ready: true, checks: { mongo: true } }),
  db: mongo.db,
  metrics: createRegistry('api_fixed_version', false),
  readModel: new ReadModelSource(mongo.db, { readMeta: () => Promise.resolve(meta), maxTimeMS: config.api.queryTimeoutMs }),
});
const handle = app.callback();
createServer((req, res) => void handle(req, res)).listen(config.api.port, config.api.host);
