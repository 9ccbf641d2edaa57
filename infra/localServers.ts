import {
  installSecantusDb,
  localMongoUrl,
  mongoAnswers,
  secantusDbFiles,
  secantusDbIsOurs,
  startSecantusDb,
  stopSecantusDb,
} from './localSecantusDb.ts';
import { installKafka, kafkaAnswers, kafkaFiles, kafkaIsOurs, startKafka, stopKafka } from './localKafka.ts';
import { installRedis, localRedisUrl, redisAnswers, redisFiles, redisIsOurs, startRedis, stopRedis } from './localRedis.ts';

// The local stand-ins for production's Kafka and MongoDB, and the Redis of the shared rate limit.
// Servers named by KAFKA_BROKERS, MONGO_URL or REDIS_URL are external: never started, never
// stopped, only probed.
export interface LocalServerOptions {
  kafkaBrokers?: string | undefined;
  mongoUrl?: string | undefined;
  redisUrl?: string | undefined;
  kafkaPort: number;
  kafkaControllerPort: number;
  mongoPort: number;
  redisPort: number;
  log: (line: string) => void;
}

export interface Endpoints {
  kafkaBrokers: string;
  mongoUrl: string;
  redisUrl: string;
  /** What this call started (and so what a matching stop may end). */
  started: { kafka: boolean; mongo: boolean; redis: boolean };
}

export function optionsFromEnv(env: NodeJS.ProcessEnv, log: (line: string) => void): LocalServerOptions {
  const port = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < 1 || value > 65535) throw new Error(`${name} must be a port number, got "${raw}"`);
    return value;
  };
  return {
    kafkaBrokers: env.KAFKA_BROKERS || undefined,
    mongoUrl: env.MONGO_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    kafkaPort: port('LOCAL_KAFKA_PORT', 9092),
    kafkaControllerPort: port('LOCAL_KAFKA_CONTROLLER_PORT', 9093),
    mongoPort: port('LOCAL_MONGO_PORT', 27017),
    redisPort: port('LOCAL_REDIS_PORT', 6379),
    log,
  };
}

export async function installLocalServers(opts: LocalServerOptions): Promise<void> {
  // Both installs are independent downloads/builds; overlap them.
  await Promise.all([
    opts.kafkaBrokers ? undefined : installKafka(opts.log),
    opts.mongoUrl ? undefined : installSecantusDb(opts.log),
    opts.redisUrl ? undefined : installRedis(opts.log),
  ]);
}

export async function startLocalServers(opts: LocalServerOptions): Promise<Endpoints> {
  await installLocalServers(opts);
  const kafkaBrokers = opts.kafkaBrokers ?? `127.0.0.1:${opts.kafkaPort}`;
  const mongoUrl = opts.mongoUrl ?? localMongoUrl(opts.mongoPort);
  const redisUrl = opts.redisUrl ?? localRedisUrl(opts.redisPort);
  const [kafka, mongo, redis] = await Promise.all([
    opts.kafkaBrokers ? false : startKafka({ port: opts.kafkaPort, controllerPort: opts.kafkaControllerPort }, opts.log),
    opts.mongoUrl ? false : startSecantusDb(opts.mongoPort, opts.log),
    opts.redisUrl ? false : startRedis(opts.redisPort, opts.log),
  ]);
  // External servers must answer too: a test run against a dead server should say so at once.
  if (!(await kafkaAnswers(kafkaBrokers.split(',')))) throw new Error(`Kafka does not answer at ${kafkaBrokers}`);
  if (!(await mongoAnswers(mongoUrl))) throw new Error(`MongoDB does not answer a ping at ${mongoUrl}`);
  if (!(await redisAnswers(redisUrl))) throw new Error(`Redis does not answer a PING at ${redisUrl}`);
  return { kafkaBrokers, mongoUrl, redisUrl, started: { kafka, mongo, redis } };
}

export async function stopLocalServers(
  which: { kafka: boolean; mongo: boolean; redis?: boolean } = { kafka: true, mongo: true, redis: true },
): Promise<{ kafka: boolean; mongo: boolean; redis: boolean }> {
  const [kafka, mongo, redis] = await Promise.all([
    which.kafka ? stopKafka() : false,
    which.mongo ? stopSecantusDb() : false,
    which.redis ? stopRedis() : false,
  ]);
  return { kafka, mongo, redis };
}

export async function localServerStatus(opts: LocalServerOptions): Promise<string[]> {
  const kafkaBrokers = opts.kafkaBrokers ?? `127.0.0.1:${opts.kafkaPort}`;
  const mongoUrl = opts.mongoUrl ?? localMongoUrl(opts.mongoPort);
  const redisUrl = opts.redisUrl ?? localRedisUrl(opts.redisPort);
  const [kafkaUp, mongoUp, redisUp] = await Promise.all([
    kafkaAnswers(kafkaBrokers.split(',')),
    mongoAnswers(mongoUrl),
    redisAnswers(redisUrl),
  ]);
  const who = (external: boolean, ours: boolean): string =>
    external ? 'external' : ours ? 'started by this project' : 'not started by this project';
  return [
    `kafka    ${kafkaUp ? 'answers' : 'down'}  ${kafkaBrokers}  (${who(Boolean(opts.kafkaBrokers), kafkaIsOurs())}; log ${kafkaFiles.logFile})`,
    `mongodb  ${mongoUp ? 'answers' : 'down'}  ${mongoUrl}  (${who(Boolean(opts.mongoUrl), secantusDbIsOurs())}; log ${secantusDbFiles.logFile})`,
    `redis    ${redisUp ? 'answers' : 'down'}  ${redisUrl.replace(/\/\/[^@/]*@/, '//***@')}  (${who(Boolean(opts.redisUrl), redisIsOurs())}; log ${redisFiles.logFile})`,
  ];
}
