import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../../infra/paths.ts';
import { loadConfig } from '../../services/config/index.ts';
import { SHUTDOWN_GRACE_MS } from '../../services/shutdown.ts';
import { composeProblems, type ComposeFile, type ScrapeTarget } from './composeProblems.ts';
import { deploymentProblems, type DeploymentLimits } from './dockerComposeDeploymentProblems.ts';
import { OPERATORS } from './operatorQueries.ts';

// What the compose tests share: docker-compose.yml as YAML reads it, the image's environment, the
// Prometheus targets, and every check a compose document must pass.

// Compose resolves YAML anchors and `<<` merge keys; so does the parser with merge on.
export const readCompose = (): ComposeFile => parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;

/** ENV of the Dockerfile's last stage: what every container of the image starts with. */
export function imageEnv(): Record<string, string> {
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

const MiB = 2 ** 20;
const deploymentLimits = (): DeploymentLimits => ({
  shutdownGraceMs: SHUTDOWN_GRACE_MS,
  // The resident memory projector/memoryBound.ts's heap cap keeps a rebuild under.
  projectorMemoryBytes: 512 * MiB,
  apiCacheBytes: loadConfig(imageEnv()).api.cacheMaxBytes,
  apiBaseBytes: 256 * MiB,
  // A bootstrap of the demo takes minutes (docs/performance.md); a longer topic takes longer.
  projectorStartPeriodSeconds: 600,
});

/** Every problem of a compose document (docker-compose.yml as read, or as a compose parser normalised it). */
export const checkCompose = (compose: ComposeFile): string[] => [
  ...composeProblems(compose, { env: imageEnv() }, scrapeTargets()),
  ...deploymentProblems(compose, deploymentLimits()),
];
