import { describe, expect, it } from 'vitest';
import type { ComposeFile } from './composeProblems.ts';
import { checkCompose as check, readCompose } from './dockerComposeChecks.ts';
import { composeBytes, composeSeconds } from './dockerComposeDeploymentProblems.ts';

// docker-compose.yml cannot run here (no Docker engine), so it is parsed and checked against the
// code: configuration variables and their values, two instances of each process, the replica
// set, Redis and Kafka addresses, ports, depends_on, what Prometheus scrapes, the demo profile,
// and what makes it hold (volumes, stop grace, restarts, memory limits, pinned images).
// dockerComposeConfig.int.test.ts runs the same checks on what Debian's docker-compose parses.

const MiB = 2 ** 20;

describe('docker-compose.yml', () => {
  it('runs two API instances and two projector replicas on a MongoDB replica set, Redis and Kafka, all scraped', () => {
    const compose = readCompose();
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['mongo', 'kafka', 'redis', 'projector', 'api-1', 'api-2', 'prometheus']),
    );
    expect(compose.services.projector?.deploy?.replicas).toBe(2);
    expect(check(compose)).toEqual([]);
  });

  it('Prometheus loads operators/ as its configuration folder', () => {
    const prometheus = readCompose().services.prometheus!;
    expect(prometheus.volumes).toContain('./operators:/etc/prometheus:ro');
    expect(prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
  });

  // The check is only worth having if it fails: each mistake below is one it must name.
  const mistakes: Array<[string, (c: ComposeFile) => void, RegExp]> = [
    [
      'an unknown variable',
      (c) => (c.services['api-1']!.environment!.MONGODB_URI = 'x'),
      /api-1: MONGODB_URI is not a configuration variable/,
    ],
    [
      'a bad value',
      (c) => (c.services.projector!.environment!.KAFKA_BROKERS = 'kafka'),
      /projector: invalid configuration:\n\s+KAFKA_BROKERS: must match/,
    ],
    ['one projector', (c) => (c.services.projector!.deploy = { replicas: 1 }), /projector: 1 instances, expected 2/],
    ['a standalone mongod', (c) => (c.services.mongo!.command = ['--bind_ip_all']), /no mongo service started with --replSet/],
    [
      'a URL without the replica set',
      (c) => (c.services.projector!.environment!.MONGO_URL = 'mongodb://mongo:27017/'),
      /projector: MONGO_URL .* is not replica set rs0/,
    ],
    ['a colliding host port', (c) => (c.services['api-2']!.ports = ['8080:8080']), /host port 8080 published by api-1 and api-2/],
    [
      'replicas on a fixed host port',
      (c) => (c.services.projector!.ports = ['9465:9465']),
      /projector: 2 replicas cannot share fixed host ports/,
    ],
    ['an unknown dependency', (c) => (c.services['api-1']!.depends_on = ['mongodb']), /api-1: depends on unknown service mongodb/],
    ['a dependency cycle', (c) => (c.services.mongo!.depends_on = ['prometheus']), /depends_on cycle/],
    ['an API without Redis', (c) => delete c.services['api-2']!.environment!.REDIS_URL, /api-2: REDIS_URL does not name a Redis service/],
    [
      'a broker address only the host can use',
      (c) => (c.services.projector!.environment!.KAFKA_BROKERS = 'kafka:9092'),
      /projector: no Kafka service advertises kafka:9092/,
    ],
    [
      'a port its healthcheck does not probe',
      (c) => (c.services['api-1']!.environment!.API_PORT = '9000'),
      /api-1: healthcheck does not probe \/health\/ready on port 9000/,
    ],
    [
      'a public URL on the wrong port',
      (c) => (c.services['api-2']!.environment!.API_PUBLIC_URL = 'http://localhost:8080'),
      /api-2: API_PUBLIC_URL/,
    ],
  ];
  const unsafe: Array<[string, (c: ComposeFile) => void, RegExp]> = [
    ['a floating image', (c) => (c.services.mongo!.image = 'mongo:8'), /mongo: image mongo:8 is not pinned/],
    ['a floating Kafka image', (c) => (c.services.kafka!.image = 'apache/kafka:latest'), /kafka: image apache\/kafka:latest is not pinned/],
    [
      "Kafka's logs outside the volume",
      (c) => delete c.services.kafka!.environment!.KAFKA_LOG_DIRS,
      /kafka: KAFKA_LOG_DIRS \(unset\) is not a mounted volume/,
    ],
    [
      "Kafka's logs in another folder",
      (c) => (c.services.kafka!.environment!.KAFKA_LOG_DIRS = '/tmp/kraft-combined-logs'),
      /kafka: KAFKA_LOG_DIRS \(\/tmp\/kraft-combined-logs\) is not a mounted volume/,
    ],
    ['a broker deleting events', (c) => (c.services.kafka!.environment!.KAFKA_LOG_RETENTION_MS = 604800000), /kafka: the broker deletes/],
    [
      'the default stop grace',
      (c) => delete c.services.projector!.stop_grace_period,
      /projector: stop_grace_period 10s \(default\) cuts the 20 s drain/,
    ],
    ['a stop grace as short as the drain', (c) => (c.services['api-1']!.stop_grace_period = '20s'), /api-1: stop_grace_period 20s cuts/],
    ['no restart policy', (c) => delete c.services.redis!.restart, /redis: no restart policy/],
    ['a one-shot job that restarts', (c) => (c.services.topics!.restart = 'always'), /topics: a one-shot job restarts/],
    ['a projector without a memory limit', (c) => delete c.services.projector!.mem_limit, /projector: memory limit unset below 512 MiB/],
    ['an API limit below its cache', (c) => (c.services['api-2']!.mem_limit = '256m'), /api-2: memory limit 256 MiB below 320 MiB/],
    [
      'a health check that gives up during a bootstrap',
      (c) => (c.services.projector!.healthcheck!.start_period = '30s'),
      /projector: healthcheck start_period 30s is shorter than a bootstrap/,
    ],
    ['no mongo volume', (c) => (c.services.mongo!.volumes = []), /mongo: \/data\/db is not a mounted volume/],
    ['no demo', (c) => delete c.services.demo, /no service runs dist\/generator\/cli.js/],
    ['a demo in every up', (c) => delete c.services.demo!.profiles, /demo: not in the demo profile/],
    [
      'a demo published twice',
      (c) => (c.services.demo!.command = [c.services.demo!.command!].flat().filter((a) => a !== '--if-empty')),
      /demo: publishes without --if-empty/,
    ],
    [
      'a demo on another topic',
      (c) => (c.services.demo!.command = [c.services.demo!.command!].flat().map((a) => (a === 'federation.events.v1' ? 'other' : a))),
      /demo: publishes to other, the projectors read federation.events.v1/,
    ],
  ];
  it.each([...mistakes, ...unsafe])('names %s', (_, spoil, expected) => {
    const compose = readCompose();
    spoil(compose);
    expect(check(compose).join('\n')).toMatch(expected);
  });

  it('reads compose sizes and durations as compose does', () => {
    expect([composeBytes('512m'), composeBytes('1g'), composeBytes('1024'), composeBytes('2GB'), composeBytes('lots')]).toEqual([
      512 * MiB,
      1024 * MiB,
      1024,
      2048 * MiB,
      Number.NaN,
    ]);
    expect([composeSeconds('30s'), composeSeconds('1m30s'), composeSeconds('15m'), composeSeconds('1h'), composeSeconds('30')]).toEqual([
      30,
      90,
      900,
      3600,
      Number.NaN,
    ]);
  });
});
