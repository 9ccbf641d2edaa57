import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import cron from 'node-cron';
import { configVariables } from './configVariables.ts';
import type { GroupMembership } from './groupMembership.ts';
import { readKafkaSecurity, readTextFile, type KafkaSecurity, type ReadFile } from './kafkaSecurity.ts';

export interface Config {
  logLevel: string;
  kafka: {
    brokers: string[];
    clientId: string;
    topic: string;
    dlqTopic: string;
    groupId: string;
    topicPartitions: number;
    membership: GroupMembership;
    security: KafkaSecurity;
  };
  mongo: { url: string; db: string };
  api: {
    host: string;
    port: number;
    basePath: string;
    publicUrl: string;
    siteUrl: string;
    opsPort: number;
    trustedProxyCount: number;
    rateLimitMax: number;
    rateLimitWindowSeconds: number;
    redisUrl: string | undefined;
    cacheMaxBytes: number;
    cacheEntryMaxBytes: number;
    work: { concurrency: number; queueLength: number; queueTimeoutMs: number; perClientSlots: number; perClientQueue: number };
    queryTimeoutMs: number;
    searchTimeoutMs: number;
    connectionsPerClient: number;
    stalledResponseTimeoutMs: number;
    searchesAtOnce: number;
  };
  projector: { opsPort: number; clockSchedule: string; bootstrapMinEvents: number };
  changes: { retentionHours: number; retentionMax: number; streamsPerClient: number; streamBufferBytes: number };
  opsHost: string;
  calendar: { timeZone: string; bufferPeriodDays: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const ajv = new Ajv({ allErrors: true, coerceTypes: true });
addFormats.default(ajv);
const validators = new Map(configVariables.map((v) => [v.name, ajv.compile(v.schema)]));

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the environment once and returns a frozen, validated configuration. Every bad value is
 * reported together, each naming its variable, so one failed start shows all the mistakes. The
 * files the variables name (Kafka's TLS certificates) are read here too, once.
 */
export function loadConfig(env: Record<string, string | undefined>, readFile: ReadFile = readTextFile): Readonly<Config> {
  const { values, problems } = readVariables(env);
  problems.push(...valueProblems(values));
  const kafka = readKafkaSecurity(values, readFile);
  problems.push(...kafka.problems);
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return deepFreeze(configFrom(values, kafka.security));
}

type Values = Record<string, unknown>;

/** Each variable's value (its default when unset or empty), checked against its schema. */
function readVariables(env: Record<string, string | undefined>): { values: Values; problems: string[] } {
  const values: Values = {};
  const problems: string[] = [];
  for (const variable of configVariables) {
    const raw = env[variable.name];
    const text = raw === undefined || raw === '' ? variable.default : raw;
    // Integers must be written as digits: coercion alone would accept "1e3" or " 8080".
    const isInteger = (variable.schema as { type?: string }).type === 'integer';
    if (isInteger && !/^\d+$/.test(text)) {
      problems.push(`${variable.name}: must be a whole number written in digits, got "${text}"`);
      continue;
    }
    const holder = { value: isInteger ? Number(text) : text };
    const validate = validators.get(variable.name)!;
    if (!validate(holder.value)) {
      const why = validate.errors?.map((e) => e.message).join('; ') ?? 'invalid';
      problems.push(`${variable.name}: ${why}, got "${text}"`);
      continue;
    }
    values[variable.name] = holder.value;
  }
  return { values, problems };
}

/** What a schema cannot check: a real time zone, a real cron expression, heartbeats within the session. */
function valueProblems(values: Values): string[] {
  const problems: string[] = [];
  const zone = values.CALENDAR_TIME_ZONE as string | undefined;
  if (zone !== undefined && !isTimeZone(zone)) problems.push(`CALENDAR_TIME_ZONE: not an IANA time zone, got "${zone}"`);
  const schedule = values.CLOCK_SCHEDULE as string | undefined;
  if (schedule !== undefined && !cron.validate(schedule)) problems.push(`CLOCK_SCHEDULE: not a cron expression, got "${schedule}"`);
  const session = values.KAFKA_SESSION_TIMEOUT_MS as number | undefined;
  const heartbeat = values.KAFKA_HEARTBEAT_INTERVAL_MS as number | undefined;
  // Kafka's advice: one missed heartbeat must not end a session.
  if (session !== undefined && heartbeat !== undefined && heartbeat * 3 > session) {
    problems.push(`KAFKA_HEARTBEAT_INTERVAL_MS: must be at most a third of KAFKA_SESSION_TIMEOUT_MS (${session}), got "${heartbeat}"`);
  }
  return problems;
}

/** The configuration from values that all passed their checks. */
function configFrom(values: Values, kafkaSecurity: KafkaSecurity): Config {
  const str = (name: string): string => values[name] as string;
  const int = (name: string): number => values[name] as number;
  const topic = str('KAFKA_TOPIC');
  return {
    logLevel: str('LOG_LEVEL'),
    kafka: {
      brokers: str('KAFKA_BROKERS').split(','),
      clientId: str('KAFKA_CLIENT_ID'),
      topic,
      dlqTopic: `${topic}.dlq`,
      groupId: str('KAFKA_GROUP_ID'),
      topicPartitions: int('KAFKA_TOPIC_PARTITIONS'),
      membership: {
        sessionTimeoutMs: int('KAFKA_SESSION_TIMEOUT_MS'),
        heartbeatIntervalMs: int('KAFKA_HEARTBEAT_INTERVAL_MS'),
        rebalanceTimeoutMs: int('KAFKA_REBALANCE_TIMEOUT_MS'),
      },
      security: kafkaSecurity,
    },
    mongo: { url: str('MONGO_URL'), db: str('MONGO_DB') },
    api: apiConfigFrom(values),
    projector: {
      opsPort: int('PROJECTOR_OPS_PORT'),
      clockSchedule: str('CLOCK_SCHEDULE'),
      bootstrapMinEvents: int('PROJECTOR_BOOTSTRAP_MIN_EVENTS'),
    },
    changes: {
      retentionHours: int('CHANGES_RETENTION_HOURS'),
      retentionMax: int('CHANGES_RETENTION_MAX'),
      streamsPerClient: int('CHANGES_STREAMS_PER_CLIENT'),
      streamBufferBytes: int('CHANGES_STREAM_BUFFER_BYTES'),
    },
    opsHost: str('OPS_HOST'),
    calendar: { timeZone: str('CALENDAR_TIME_ZONE'), bufferPeriodDays: int('BUFFER_PERIOD_DAYS') },
  };
}

/** The API's part of the configuration (configFrom's, apart for its length). */
function apiConfigFrom(values: Values): Config['api'] {
  const str = (name: string): string => values[name] as string;
  const int = (name: string): number => values[name] as number;
  return {
    host: str('API_HOST'),
    port: int('API_PORT'),
    basePath: str('API_BASE_PATH'),
    publicUrl: str('API_PUBLIC_URL').replace(/\/+$/, ''),
    siteUrl: str('SITE_URL').replace(/\/+$/, ''),
    opsPort: int('API_OPS_PORT'),
    trustedProxyCount: int('TRUSTED_PROXY_COUNT'),
    rateLimitMax: int('RATE_LIMIT_MAX'),
    rateLimitWindowSeconds: int('RATE_LIMIT_WINDOW_SECONDS'),
    // Empty means no Redis: the in-memory store, one budget per instance.
    redisUrl: str('REDIS_URL') || undefined,
    cacheMaxBytes: int('CACHE_MAX_BYTES'),
    cacheEntryMaxBytes: int('CACHE_ENTRY_MAX_BYTES'),
    work: {
      concurrency: int('API_WORK_CONCURRENCY'),
      queueLength: int('API_WORK_QUEUE_LENGTH'),
      queueTimeoutMs: int('API_WORK_QUEUE_TIMEOUT_MS'),
      perClientSlots: int('API_WORK_PER_CLIENT'),
      perClientQueue: int('API_WORK_QUEUE_PER_CLIENT'),
    },
    queryTimeoutMs: int('API_QUERY_TIMEOUT_MS'),
    searchTimeoutMs: int('API_SEARCH_TIMEOUT_MS'),
    connectionsPerClient: int('API_CONNECTIONS_PER_CLIENT'),
    stalledResponseTimeoutMs: int('API_STALLED_RESPONSE_TIMEOUT_MS'),
    searchesAtOnce: int('API_SEARCHES_AT_ONCE'),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
