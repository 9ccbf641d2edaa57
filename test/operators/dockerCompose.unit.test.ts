import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/paths.ts';
import { composeProblems, type ComposeFile, type ScrapeTarget } from './composeProblems.ts';
import { OPERATORS } from './operatorQueries.ts';

// docker-compose.yml cannot run here (no Docker engine), so it is parsed and checked against the
// code: configuration variables and their values, two instances of each process, the replica
// set, Redis and Kafka addresses, ports, depends_on, and what Prometheus scrapes.

// Compose resolves YAML anchors and `<<` merge keys; so does the parser with merge on.
const readCompose = (): ComposeFile => parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;

/** ENV of the Dockerfile's last stage: what every container of the image starts with. */
function imageEnv(): Record<string, string> {
  const stages = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').split(/^FROM /m);
  const lines = (stages.at(-1) ?? '').split('\n').filter((line) => line.startsWith('ENV '));
  return Object.fromEntries(
    lines.flatMap((line) =>
      line
        .slice(4)
        .trim()
        .split(/\s+/)
        .map((pair) => pair.split('=') as [string, string]),
    ),
  );
}

function scrapeTargets(): ScrapeTarget[] {
  type Job = { job_name: string; static_configs?: Array<{ targets: string[] }>; dns_sd_configs?: Array<{ names: string[]; port: number }> };
  const config = parse(readFileSync(join(OPERATORS, 'prometheus.yml'), 'utf8')) as { scrape_configs: Job[] };
  return config.scrape_configs.flatMap((job) => [
    ...(job.static_configs ?? []).flatMap((c) =>
      c.targets.map((t) => ({ job: job.job_name, host: t.split(':')[0]!, port: Number(t.split(':')[1]) })),
    ),
    ...(job.dns_sd_configs ?? []).flatMap((c) => c.names.map((host) => ({ job: job.job_name, host, port: c.port }))),
  ]);
}

const check = (compose: ComposeFile): string[] => composeProblems(compose, { env: imageEnv() }, scrapeTargets());

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
  it.each(mistakes)('names %s', (_, spoil, expected) => {
    const compose = readCompose();
    spoil(compose);
    expect(check(compose).join('\n')).toMatch(expected);
  });
});
