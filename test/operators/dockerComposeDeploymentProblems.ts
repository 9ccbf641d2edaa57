import type { ComposeFile, ComposeService } from './composeProblems.ts';

// What makes the compose deployment hold over time rather than merely start: data in volumes,
// stops that let the drain finish, restarts, memory limits, health checks that wait out a
// bootstrap, images that do not float. A parsed compose document in, one sentence per problem out.

export interface DeploymentLimits {
  /** The processes' own drain before they exit anyway (services/shutdown.ts). */
  readonly shutdownGraceMs: number;
  /** The resident memory the projector's heap cap keeps a rebuild under (projector/memoryBound.ts). */
  readonly projectorMemoryBytes: number;
  /** The API's response cache bound when an instance does not set CACHE_MAX_BYTES. */
  readonly apiCacheBytes: number;
  /** Memory an API instance needs beside its cache: heap, rate-limit counts, buffers. */
  readonly apiBaseBytes: number;
  /** The shortest start period that covers a first start's bootstrap of a long topic. */
  readonly projectorStartPeriodSeconds: number;
}

const MiB = 2 ** 20;
const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: MiB, mb: MiB, g: 2 ** 30, gb: 2 ** 30 };

/** Compose's byte values (`512m`, `1g`, `536870912`) in bytes, or NaN. */
export function composeBytes(value: string | number | undefined): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(String(value ?? '').trim());
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  return match && unit !== undefined ? Number(match[1]) * unit : Number.NaN;
}

/** Compose's durations (`30s`, `1m30s`, `15m`, `1h`) in seconds, or NaN. */
export function composeSeconds(value: string | number | undefined): number {
  const text = String(value ?? '').trim();
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return Number.NaN;
  const scale: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * scale[p[2]!]!, 0);
}

const commandText = (service: ComposeService): string => [service.command ?? []].flat().join(' ');
const memoryLimit = (service: ComposeService): number =>
  composeBytes(service.mem_limit ?? service.deploy?.resources?.limits?.memory ?? undefined);
const volumeTargets = (service: ComposeService): string[] =>
  (service.volumes ?? []).map((v) => (typeof v === 'string' ? (v.split(':')[1] ?? '') : (v.target ?? '')));

/** Services something waits for to complete: one-shot jobs that must not restart. */
function oneShots(compose: ComposeFile): Set<string> {
  const waited = Object.values(compose.services).flatMap((s) =>
    Array.isArray(s.depends_on)
      ? []
      : Object.entries(s.depends_on ?? {})
          .filter(([, d]) => (d as { condition?: string }).condition === 'service_completed_successfully')
          .map(([name]) => name),
  );
  return new Set(waited);
}

export function deploymentProblems(compose: ComposeFile, limits: DeploymentLimits): string[] {
  const problems: string[] = [];
  const jobs = oneShots(compose);
  for (const [name, service] of Object.entries(compose.services)) {
    const command = commandText(service);
    const env = service.environment ?? {};
    const role = command.includes('dist/api/main.js') ? 'api' : command.includes('dist/projector/main.js') ? 'projector' : undefined;

    if (service.build === undefined && !/:v?\d+\.\d+\.\d+(?:-[\w.-]+)?$/.test(service.image ?? ''))
      problems.push(`${name}: image ${service.image ?? '(none)'} is not pinned to an exact version`);

    const oneShot = jobs.has(name) || (service.profiles ?? []).length > 0;
    if (oneShot && service.restart !== 'no') problems.push(`${name}: a one-shot job restarts (${service.restart ?? 'unset'})`);
    if (!oneShot && !['always', 'unless-stopped', 'on-failure'].includes(service.restart ?? ''))
      problems.push(`${name}: no restart policy (${service.restart ?? 'unset'})`);

    if (role !== undefined) {
      const grace = composeSeconds(service.stop_grace_period ?? '10s');
      if (!(grace * 1000 >= limits.shutdownGraceMs + 5000))
        problems.push(
          `${name}: stop_grace_period ${service.stop_grace_period ?? '10s (default)'} cuts the ${limits.shutdownGraceMs / 1000} s drain`,
        );
      const cache = env.CACHE_MAX_BYTES === undefined ? limits.apiCacheBytes : Number(env.CACHE_MAX_BYTES);
      const needed = role === 'projector' ? limits.projectorMemoryBytes : cache + limits.apiBaseBytes;
      const limit = memoryLimit(service);
      if (!(limit >= needed))
        problems.push(`${name}: memory limit ${Number.isNaN(limit) ? 'unset' : `${limit / MiB} MiB`} below ${needed / MiB} MiB`);
    }
    if (role === 'projector') {
      const start = composeSeconds(service.healthcheck?.start_period ?? '0s');
      if (!(start >= limits.projectorStartPeriodSeconds))
        problems.push(`${name}: healthcheck start_period ${service.healthcheck?.start_period ?? 'unset'} is shorter than a bootstrap`);
    }

    if (service.image?.startsWith('apache/kafka:') && env.KAFKA_PROCESS_ROLES !== undefined) {
      const logDirs = String(env.KAFKA_LOG_DIRS ?? '');
      if (logDirs === '' || !volumeTargets(service).includes(logDirs))
        problems.push(
          `${name}: KAFKA_LOG_DIRS (${logDirs || 'unset'}) is not a mounted volume; the topics would vanish with the container`,
        );
      if (String(env.KAFKA_LOG_RETENTION_MS) !== '-1') problems.push(`${name}: the broker deletes old events (KAFKA_LOG_RETENTION_MS)`);
    }
    if (service.image?.startsWith('mongo:') && !volumeTargets(service).includes('/data/db'))
      problems.push(`${name}: /data/db is not a mounted volume`);
  }
  return problems;
}
