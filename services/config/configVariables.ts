import { Type, type TSchema } from '@sinclair/typebox';
import { MEMBERSHIP_DEFAULTS } from './groupMembership.ts';

// Every environment variable the service reads, with its default and what it means. The table
// of docs/configuration.md lists exactly these (a unit test keeps the two in step).
export interface ConfigVariable {
  name: string;
  schema: TSchema;
  default: string;
  description: string;
}

const port = (description: string, fallback: number): Omit<ConfigVariable, 'name'> => ({
  schema: Type.Integer({ minimum: 1, maximum: 65535 }),
  default: String(fallback),
  description,
});
const httpUrl = Type.String({ format: 'uri', pattern: '^https?://[^/]+(/.*)?$' });

export const configVariables: ConfigVariable[] = [
  {
    name: 'LOG_LEVEL',
    schema: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
    default: 'info',
    description: 'pino log level',
  },
  {
    name: 'KAFKA_BROKERS',
    schema: Type.String({ pattern: '^[A-Za-z0-9.-]+:\\d{1,5}(,[A-Za-z0-9.-]+:\\d{1,5})*$' }),
    default: '127.0.0.1:9092',
    description: 'comma-separated host:port list; when set, `npm start` and the tests start no local Kafka',
  },
  {
    name: 'KAFKA_CLIENT_ID',
    schema: Type.String({ minLength: 1, maxLength: 100 }),
    default: 'federation-read',
    description: 'Kafka client id prefix',
  },
  {
    name: 'KAFKA_TOPIC',
    schema: Type.String({ pattern: '^[A-Za-z0-9._-]{1,200}$' }),
    default: 'federation.events.v1',
    description: 'events topic; dead letters go to `<topic>.dlq`',
  },
  {
    name: 'KAFKA_GROUP_ID',
    schema: Type.String({ minLength: 1, maxLength: 200 }),
    default: 'federation-read-projector',
    description: 'consumer group of the projector instances',
  },
  {
    name: 'KAFKA_TOPIC_PARTITIONS',
    schema: Type.Integer({ minimum: 1, maximum: 1000 }),
    default: '6',
    description: 'partitions used when the projector has to create a missing topic (local runs)',
  },
  {
    name: 'KAFKA_SESSION_TIMEOUT_MS',
    // Kafka's own bounds for a group member's session (group.min/max.session.timeout.ms defaults).
    schema: Type.Integer({ minimum: 6_000, maximum: 1_800_000 }),
    default: String(MEMBERSHIP_DEFAULTS.sessionTimeoutMs),
    description:
      'how long the broker waits for a silent projector instance before its partitions go to the others: what a crash costs in freshness; a pause longer than this (GC, a stopped VM) costs a rebalance (docs/operating.md, fail-over)',
  },
  {
    name: 'KAFKA_HEARTBEAT_INTERVAL_MS',
    schema: Type.Integer({ minimum: 100, maximum: 600_000 }),
    default: String(MEMBERSHIP_DEFAULTS.heartbeatIntervalMs),
    description:
      'how often an instance heartbeats (and so learns that another left or joined) and the longest a fetch waits on a quiet topic: what a rolling restart costs in freshness; at most a third of the session timeout',
  },
  {
    name: 'KAFKA_REBALANCE_TIMEOUT_MS',
    schema: Type.Integer({ minimum: 1_000, maximum: 1_800_000 }),
    default: String(MEMBERSHIP_DEFAULTS.rebalanceTimeoutMs),
    description:
      'how long a rebalance waits for an instance busy with a chunk to rejoin (every partition waits with it); a later one is dropped and its chunk folded again by the new owner, so keep it above the longest chunk of a catch-up',
  },
  {
    name: 'KAFKA_SSL',
    schema: Type.String({ pattern: '^(true|false)$' }),
    default: 'false',
    description: "true: the Kafka clients connect over TLS (the brokers' TLS or SASL_SSL listener)",
  },
  {
    name: 'KAFKA_SSL_CA_FILE',
    schema: Type.String(),
    default: '',
    description:
      "PEM file of the CA(s) the brokers' certificates are checked against, read once at start-up; unset: the system's trusted roots. Needs KAFKA_SSL=true",
  },
  {
    name: 'KAFKA_SSL_CERT_FILE',
    schema: Type.String(),
    default: '',
    description: 'PEM client certificate, for clusters that authenticate clients by certificate (mutual TLS); with KAFKA_SSL_KEY_FILE',
  },
  {
    name: 'KAFKA_SSL_KEY_FILE',
    schema: Type.String(),
    default: '',
    description: 'unencrypted PEM private key of KAFKA_SSL_CERT_FILE',
  },
  {
    name: 'KAFKA_SSL_REJECT_UNAUTHORIZED',
    schema: Type.String({ pattern: '^(true|false)$' }),
    default: 'true',
    description: 'false accepts any broker certificate (tests only: it gives up knowing who the broker is)',
  },
  {
    name: 'KAFKA_SASL_MECHANISM',
    schema: Type.String({ pattern: '^((plain|scram-sha-256|scram-sha-512)|(PLAIN|SCRAM-SHA-256|SCRAM-SHA-512))?$' }),
    default: '',
    description:
      'SASL mechanism the clients authenticate with: `plain`, `scram-sha-256` or `scram-sha-512` (either case); unset: no SASL. Needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD',
  },
  {
    name: 'KAFKA_SASL_USERNAME',
    schema: Type.String({ maxLength: 1000 }),
    default: '',
    description: 'SASL user name',
  },
  {
    // No pattern or length on purpose: a schema failure would print the value.
    name: 'KAFKA_SASL_PASSWORD',
    schema: Type.String(),
    default: '',
    description: 'SASL password (never logged)',
  },
  {
    name: 'MONGO_URL',
    schema: Type.String({ pattern: '^mongodb(\\+srv)?://\\S+$' }),
    default: 'mongodb://127.0.0.1:27017/',
    description: 'MongoDB connection string; when set, `npm start` and the tests start no local SecantusDB',
  },
  {
    name: 'MONGO_DB',
    schema: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$' }),
    default: 'federation_read',
    description: 'database holding the read model',
  },
  {
    name: 'API_HOST',
    schema: Type.String({ minLength: 1 }),
    default: '127.0.0.1',
    description: 'address the public API listens on (`0.0.0.0` in containers)',
  },
  { name: 'API_PORT', ...port('port of the public API', 8080) },
  {
    name: 'API_BASE_PATH',
    schema: Type.String({ pattern: '^(/[A-Za-z0-9._~-]+)+$' }),
    default: '/api/v1',
    description: 'path prefix of every public endpoint',
  },
  {
    name: 'API_PUBLIC_URL',
    schema: httpUrl,
    default: 'http://127.0.0.1:8080',
    description:
      'origin clients reach the API at; absolute `links` are built from it (never from request headers, so cached bodies cannot be poisoned)',
  },
  {
    name: 'SITE_URL',
    schema: httpUrl,
    default: 'https://calendar.federation.example',
    description: 'public web site; `links.web` and `links.registration` are built from it',
  },
  {
    name: 'OPS_HOST',
    schema: Type.String({ minLength: 1 }),
    default: '127.0.0.1',
    description: "address of the operators' port (metrics, health) of both processes",
  },
  { name: 'API_OPS_PORT', ...port("operators' port of the API: /metrics, /health/live, /health/ready", 9464) },
  { name: 'PROJECTOR_OPS_PORT', ...port("operators' port of the projector: /metrics, /health/live, /health/ready", 9465) },
  {
    name: 'TRUSTED_PROXY_COUNT',
    schema: Type.Integer({ minimum: 0, maximum: 10 }),
    default: '0',
    description: 'reverse proxies in front of the API whose X-Forwarded-For is trusted; 0 uses the socket address',
  },
  {
    name: 'RATE_LIMIT_MAX',
    schema: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    default: '300',
    description: 'requests per client IP per window',
  },
  {
    name: 'RATE_LIMIT_WINDOW_SECONDS',
    schema: Type.Integer({ minimum: 1, maximum: 3600 }),
    default: '60',
    description: 'length of the sliding rate-limit window',
  },
  {
    name: 'REDIS_URL',
    schema: Type.String({ pattern: '^(rediss?://\\S+)?$' }),
    default: '',
    description:
      'Redis holding the rate-limit counts shared by all API instances (`redis://host:port`); empty: each instance counts alone in memory',
  },
  {
    name: 'API_QUERY_TIMEOUT_MS',
    schema: Type.Integer({ minimum: 1, maximum: 600_000 }),
    default: '10000',
    description:
      'time limit of each API database operation (sent as maxTimeMS, so the database stops it too); past it the request answers 503',
  },
  {
    name: 'API_CONNECTIONS_PER_CLIENT',
    schema: Type.Integer({ minimum: 1, maximum: 4096 }),
    default: '64',
    description:
      'open connections one client address (an IPv4 address, an IPv6 /64) may hold on the public port; past it a new one is closed at once. Not applied behind trusted proxies (TRUSTED_PROXY_COUNT above 0), where the socket address is the proxy',
  },
  {
    name: 'API_STALLED_RESPONSE_TIMEOUT_MS',
    schema: Type.Integer({ minimum: 1000, maximum: 600_000 }),
    default: '30000',
    description:
      'a public connection whose client takes no byte of its answer for this long is closed (a body being read, however slowly, is never cut)',
  },
  {
    name: 'API_SEARCHES_AT_ONCE',
    schema: Type.Integer({ minimum: 1, maximum: 1000 }),
    default: '2',
    description:
      'of the uncached answers one API instance makes at once (API_WORK_CONCURRENCY), how many may run a `search`; one more waits for a turn in a queue like that of the work slots (API_WORK_QUEUE_LENGTH, API_WORK_QUEUE_TIMEOUT_MS), then answers 503 with Retry-After',
  },
  {
    name: 'CACHE_MAX_BYTES',
    schema: Type.Integer({ minimum: 1_048_576, maximum: 8_589_934_592 }),
    default: '67108864',
    description: 'upper bound of the response cache, in bytes of stored bodies',
  },
  {
    name: 'CACHE_ENTRY_MAX_BYTES',
    schema: Type.Integer({ minimum: 1024, maximum: 67_108_864 }),
    default: '1048576',
    description:
      'the answer budget: the largest body the API builds whole in memory, compresses once and caches; a larger one is streamed as it is read and not cached',
  },
  {
    name: 'API_WORK_CONCURRENCY',
    schema: Type.Integer({ minimum: 1, maximum: 1000 }),
    default: '4',
    description: 'uncached answers (database queries and their bodies) one API instance makes at once; cache hits and 304s are not counted',
  },
  {
    name: 'API_WORK_QUEUE_LENGTH',
    schema: Type.Integer({ minimum: 0, maximum: 100_000 }),
    default: '64',
    description: 'uncached requests that may wait for one of those slots; one more answers 503 with `Retry-After`',
  },
  {
    name: 'API_WORK_QUEUE_TIMEOUT_MS',
    schema: Type.Integer({ minimum: 1, maximum: 600_000 }),
    default: '5000',
    description: 'how long a request may wait in that queue before it answers 503 with `Retry-After`',
  },
  {
    name: 'CALENDAR_TIME_ZONE',
    schema: Type.String({ minLength: 1 }),
    default: 'UTC',
    description: 'IANA zone of the federation calendar: "today", `period`, `registration.state`, day boundaries',
  },
  {
    name: 'BUFFER_PERIOD_DAYS',
    schema: Type.Integer({ minimum: 1, maximum: 3650 }),
    default: '30',
    description: 'days a coach or club stays in the buffer before the archive takes it',
  },
  {
    name: 'PROJECTOR_BOOTSTRAP_MIN_EVENTS',
    schema: Type.Integer({ minimum: 0 }),
    default: '100000',
    description:
      'a projector finding an empty read model before a topic of at least this many events fills it as a rebuild does (API indexes built at the end); 0 never',
  },
  {
    name: 'CLOCK_SCHEDULE',
    schema: Type.String({ minLength: 9, maxLength: 100 }),
    default: '*/30 * * * * *',
    description: 'node-cron schedule (with seconds) of the projector clock that applies due transitions',
  },
  {
    name: 'CHANGES_RETENTION_HOURS',
    schema: Type.Integer({ minimum: 1, maximum: 8_760 }),
    default: '168',
    description:
      'how long the change feed keeps a change (the projector clock trims older ones); a cursor older than that answers 410 (docs/operating.md, "The change feed")',
  },
  {
    name: 'CHANGES_RETENTION_MAX',
    schema: Type.Integer({ minimum: 1_000, maximum: 100_000_000 }),
    default: '2000000',
    description: 'the most changes the feed keeps, whatever their age: bounds its size in the database',
  },
  {
    name: 'CHANGES_STREAMS_PER_CLIENT',
    schema: Type.Integer({ minimum: 1, maximum: 1_000 }),
    default: '4',
    description: 'Server-Sent Events streams of `/changes` one client IP may hold open on one API instance; one more answers 429',
  },
  {
    name: 'CHANGES_STREAM_BUFFER_BYTES',
    schema: Type.Integer({ minimum: 4_096, maximum: 16_777_216 }),
    default: '262144',
    description:
      'unsent bytes a `/changes` stream may hold before it is cut with its last cursor (a subscriber that does not read): the bound of its memory',
  },
];
