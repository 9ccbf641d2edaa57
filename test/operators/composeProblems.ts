import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../infra/paths.ts';
import { configVariables, loadConfig, type Config } from '../../services/config/index.ts';

// What docker-compose.yml must get right for several instances to work, checked without a
// Docker engine: a parsed compose document in, one sentence per problem out.

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: Array<string | { published?: string | number; target?: number }>;
  depends_on?: string[] | Record<string, unknown>;
  deploy?: { replicas?: number; resources?: { limits?: { memory?: string | number } } };
  healthcheck?: { test?: string[] | string; start_period?: string };
  volumes?: Array<string | { source?: string; target?: string }>;
  restart?: string;
  stop_grace_period?: string;
  mem_limit?: string | number;
  profiles?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** A scrape target of operators/prometheus.yml: a compose service name and a port. */
export interface ScrapeTarget {
  job: string;
  host: string;
  port: number;
}

type Role = 'api' | 'projector';

const roleOf = (service: ComposeService): Role | undefined => {
  const command = [service.command ?? []].flat().join(' ');
  return command.includes('dist/api/main.js') ? 'api' : command.includes('dist/projector/main.js') ? 'projector' : undefined;
};
const text = (value: string | readonly string[] | number | boolean | null | undefined): string =>
  Array.isArray(value) ? value.join(' ') : String(value ?? '');
const dependencies = (service: ComposeService): string[] =>
  Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});

/** Host ports a service publishes (ranges expanded); none for a container-only port. */
export function hostPorts(service: ComposeService): number[] {
  return (service.ports ?? []).flatMap((port) => {
    const published = typeof port === 'object' ? String(port.published ?? '') : (port.split(':').slice(0, -1).pop() ?? '');
    const [from, to] = published.split('-').map(Number);
    if (from === undefined || Number.isNaN(from) || published === '') return [];
    return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
  });
}

/** The host port published for a container port, if any. */
function publishedFor(service: ComposeService, containerPort: number): number | undefined {
  for (const port of service.ports ?? []) {
    if (typeof port === 'object' && port.target === containerPort) return Number(port.published);
    if (typeof port === 'string' && port.endsWith(`:${containerPort}`)) return Number(port.split(':').at(-2));
  }
  return undefined;
}

const DEMO_PUBLISHER = 'dist/generator/cli.js';

/**
 * The demo profile publishes the generated federation (as `npm start` does) to the topic the
 * projectors read, through an address Kafka advertises, once: only into an empty topic.
 */
function demoProblems(services: Record<string, ComposeService>, projector: Readonly<Config> | undefined): string[] {
  const demo = Object.entries(services).find(([, s]) => text(s.command).includes(DEMO_PUBLISHER));
  if (!demo) return [`no service runs ${DEMO_PUBLISHER} (the demo federation)`];
  const [name, service] = demo;
  const args = [service.command ?? []].flat();
  const option = (flag: string): string | undefined => args[args.indexOf(flag) + 1];
  const problems: string[] = [];
  if (!(service.profiles ?? []).includes('demo')) problems.push(`${name}: not in the demo profile, so every \`up\` would publish it`);
  for (const flag of ['--kafka', '--if-empty']) if (!args.includes(flag)) problems.push(`${name}: publishes without ${flag}`);
  const broker = option('--brokers') ?? '';
  const kafka = services[broker.split(':')[0]!];
  if (!kafka || !text(kafka.environment?.KAFKA_ADVERTISED_LISTENERS).includes(`//${broker}`))
    problems.push(`${name}: no Kafka service advertises ${broker || '(no --brokers)'}`);
  if (option('--topic') !== projector?.kafka.topic)
    problems.push(`${name}: publishes to ${option('--topic')}, the projectors read ${projector?.kafka.topic}`);
  if (!existsSync(join(ROOT, 'generator', 'cli.ts'))) problems.push(`${name}: generator/cli.ts does not exist`);
  return problems;
}

export function composeProblems(
  compose: ComposeFile,
  image: { env: Record<string, string> },
  scrapeTargets: readonly ScrapeTarget[],
): string[] {
  const problems: string[] = [];
  const services = compose.services;
  const known = new Set(configVariables.map((v) => v.name));
  const instances: Record<Role, number> = { api: 0, projector: 0 };
  const ours: Array<{ name: string; role: Role; config: Readonly<Config>; replicas: number }> = [];

  for (const [name, service] of Object.entries(services)) {
    const role = roleOf(service);
    if (service.build !== undefined && role === undefined && !text(service.command).includes(DEMO_PUBLISHER))
      problems.push(`${name}: built from the project but runs neither dist/api/main.js, dist/projector/main.js nor ${DEMO_PUBLISHER}`);
    if (role === undefined) continue;
    const replicas = service.deploy?.replicas ?? 1;
    instances[role] += replicas;
    if (!existsSync(join(ROOT, role, 'main.ts'))) problems.push(`${name}: ${role}/main.ts does not exist`);
    const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, String(v ?? '')]));
    for (const key of Object.keys(env)) if (!known.has(key)) problems.push(`${name}: ${key} is not a configuration variable`);
    try {
      ours.push({ name, role, config: loadConfig({ ...image.env, ...env }), replicas });
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  }

  for (const [role, count] of Object.entries(instances)) if (count !== 2) problems.push(`${role}: ${count} instances, expected 2`);
  const groups = new Set(ours.filter((s) => s.role === 'projector').map((s) => s.config.kafka.groupId));
  if (groups.size > 1) problems.push(`projector instances in ${groups.size} consumer groups: ${[...groups].join(', ')}`);

  // The replica set: mongod started as one, initiated under the same name, and every URL asks for it.
  const mongo = Object.entries(services).find(([, s]) => s.image?.startsWith('mongo:'));
  const replSet = mongo && /--replSet\s+(\S+)/.exec(text(mongo[1].command))?.[1];
  if (!mongo || !replSet) problems.push('no mongo service started with --replSet');
  else if (
    !text(mongo[1].healthcheck?.test).includes(`rs.initiate({ _id: '${replSet}', members: [{ _id: 0, host: '${mongo[0]}:27017' }] })`)
  ) {
    problems.push(`${mongo[0]}: nothing initiates replica set ${replSet} with member ${mongo[0]}:27017`);
  }

  for (const { name, role, config, replicas } of ours) {
    const service = services[name]!;
    const mongoUrl = new URL(config.mongo.url);
    if (mongoUrl.hostname !== mongo?.[0] || mongoUrl.searchParams.get('replicaSet') !== replSet)
      problems.push(`${name}: MONGO_URL ${config.mongo.url} is not replica set ${replSet} on ${mongo?.[0]}`);
    if (config.api.host !== '0.0.0.0' || config.opsHost !== '0.0.0.0')
      problems.push(`${name}: listens on ${config.api.host}/${config.opsHost}, unreachable from other containers`);
    if (replicas > 1 && hostPorts(service).length > 0) problems.push(`${name}: ${replicas} replicas cannot share fixed host ports`);
    const health = text(service.healthcheck?.test);
    const port = role === 'api' ? config.api.port : config.projector.opsPort;
    if (!health.includes(`127.0.0.1:${port}/health/ready`))
      problems.push(`${name}: healthcheck does not probe /health/ready on port ${port}`);
    if (role === 'api') {
      const published = publishedFor(service, config.api.port);
      if (published === undefined || new URL(config.api.publicUrl).port !== String(published))
        problems.push(`${name}: API_PUBLIC_URL ${config.api.publicUrl} is not the published port ${published}`);
      const redis = config.api.redisUrl && new URL(config.api.redisUrl).hostname;
      if (!redis || !services[redis]?.image?.startsWith('redis:') || !dependencies(service).includes(redis))
        problems.push(`${name}: REDIS_URL does not name a Redis service it depends on`);
    } else {
      for (const broker of config.kafka.brokers) {
        const kafka = services[broker.split(':')[0]!];
        if (!kafka || !text(kafka.environment?.KAFKA_ADVERTISED_LISTENERS).includes(`//${broker}`))
          problems.push(`${name}: no Kafka service advertises ${broker}`);
      }
    }
  }

  problems.push(...demoProblems(services, ours.find((s) => s.role === 'projector')?.config));

  // Prometheus scrapes every instance on the operators' port it serves.
  for (const target of scrapeTargets) {
    const found = ours.find((s) => s.name === target.host);
    const port = found && (found.role === 'api' ? found.config.api.opsPort : found.config.projector.opsPort);
    if (port !== target.port)
      problems.push(`prometheus job ${target.job}: ${target.host}:${target.port} is not an instance's operators' port`);
  }
  for (const { name } of ours) if (!scrapeTargets.some((t) => t.host === name)) problems.push(`prometheus scrapes no ${name}`);

  // depends_on names real services and has no cycle; no host port is published twice.
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (done.has(name)) return;
    if (visiting.has(name)) return void problems.push(`depends_on cycle: ${[...path, name].join(' -> ')}`);
    visiting.add(name);
    for (const next of dependencies(services[name]!)) {
      if (!(next in services)) problems.push(`${name}: depends on unknown service ${next}`);
      else visit(next, [...path, name]);
    }
    visiting.delete(name);
    done.add(name);
  };
  for (const name of Object.keys(services)) visit(name, []);
  const owners = new Map<number, string>();
  for (const [name, service] of Object.entries(services)) {
    for (const port of hostPorts(service)) {
      const owner = owners.get(port);
      if (owner) problems.push(`host port ${port} published by ${owner} and ${name}`);
      owners.set(port, name);
    }
  }
  return problems;
}
