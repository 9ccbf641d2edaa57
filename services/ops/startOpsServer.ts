import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { closeStalledResponses } from '../http/closeStalledResponses.ts';
import { CONNECTION_TIMEOUTS, connectionTimeoutOptions } from '../http/connectionTimeouts.ts';
import { healthAnswer } from './healthAnswer.ts';
import { readinessGauge } from './readinessGauge.ts';

export type ReadinessCheck = () => Promise<{ ready: boolean; checks: Record<string, boolean> }>;

/**
 * The operators' port of a process: liveness, readiness and Prometheus metrics. It is separate
 * from the public API port so /metrics is never reachable through the public base path.
 */
/**
 * A readiness check that has not answered within this long counts as "not ready": a probe
 * stuck on a paused database must not hang the load balancer's request (nor pile up).
 */
export const READINESS_TIMEOUT_MS = 3000;

/**
 * The operators' port keeps the public port's connection timeouts (CONNECTION_TIMEOUTS) and a
 * small connection cap: its callers are a scraper, probes and an operator, so a client that
 * reaches it anyway (a mistaken address) cannot hold it open nor pile connections on it.
 */
export const OPS_SERVER_LIMITS = { ...CONNECTION_TIMEOUTS, maxConnections: 64 } as const;

export async function startOpsServer(opts: {
  host: string;
  port: number;
  registry: Registry;
  readiness: ReadinessCheck;
  /** Whether the process still does its work (default: always); /health/live answers 503 when not. */
  live?: () => boolean;
  readinessTimeoutMs?: number;
}): Promise<Server> {
  const deadline = opts.readinessTimeoutMs ?? READINESS_TIMEOUT_MS;
  readinessGauge(opts.registry, () =>
    withDeadline(opts.readiness(), deadline).then(
      ({ ready }) => ready,
      () => false,
    ),
  );
  const server = createServer(connectionTimeoutOptions(), (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, type: string, body: string): void => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'text/plain', 'method not allowed\n');
    // The same answers as the public port's health paths (one handler for both).
    const health = healthAnswer(path ?? '/', () => withDeadline(opts.readiness(), deadline), opts.live);
    if (health) {
      health
        .then(({ status, body }) => reply(status, 'application/json', `${JSON.stringify(body)}\n`))
        .catch(() => reply(503, 'application/json', '{"status":"not ready"}\n'));
      return;
    }
    if (path === '/metrics') {
      opts.registry
        .metrics()
        .then((text) => reply(200, opts.registry.contentType, text))
        .catch(() => reply(500, 'text/plain', 'metrics unavailable\n'));
      return;
    }
    reply(404, 'text/plain', 'not found\n');
  });
  server.maxConnections = OPS_SERVER_LIMITS.maxConnections;
  closeStalledResponses(server, { timeoutMs: OPS_SERVER_LIMITS.stalledResponseTimeoutMs });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`readiness check took over ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
