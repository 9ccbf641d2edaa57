import { createServer, type RequestListener, type Server } from 'node:http';
import { Counter, type Registry } from 'prom-client';
import { closeStalledResponses } from '../services/http/closeStalledResponses.ts';
import { CONNECTION_TIMEOUTS, connectionTimeoutOptions } from '../services/http/connectionTimeouts.ts';
import { capConnectionsPerClient } from './capConnectionsPerClient.ts';

/**
 * What one connection may cost the public port (decisions.md, "Hostile input"): the timeouts of
 * CONNECTION_TIMEOUTS (10 s for the request head, 30 s for the whole request, 5 s of keep-alive
 * idleness, 30 s for an answer nobody reads); the parser refuses a head (request line and
 * headers) over 16 KB with 431, and the app a request line over 8 KB with 414.
 */
export const SERVER_LIMITS = {
  ...CONNECTION_TIMEOUTS,
  maxHeaderBytes: 16_384,
  /**
   * Open connections per instance; past it a new one is closed at once (counted in
   * api_connections_dropped_total). The timeouts bound how long one lasts but not how many
   * arrive: each costs socket and parser memory (docs/performance.md has the figure) and a file
   * descriptor the database pool also needs, so the cap keeps them within the container's
   * memory beside the response cache. Behind a load balancer an instance sees the balancer's
   * pooled connections, far fewer; a client past the cap is refused, never the process stopped.
   */
  maxConnections: 4_096,
  /**
   * Open connections of one client (its rate-limit key: an IPv4 address, an IPv6 /64) when the
   * socket address is the client's (no trusted proxy); past it a new one is closed at once
   * (api_connections_refused_total), so a few clients cannot hold every slot of maxConnections.
   * A browser opens six per host; a client within the rate limit needs few more
   * (config API_CONNECTIONS_PER_CLIENT).
   */
  connectionsPerClient: 64,
} as const;

export interface ApiServerOptions {
  /** Registry of the operators' port: the dropped, refused and stalled connection counters. */
  readonly metrics?: Registry;
  /**
   * Open connections per client address, or null for no per-client cap: behind trusted proxies
   * the socket address is a proxy's and every client shares it (config TRUSTED_PROXY_COUNT).
   */
  readonly connectionsPerClient?: number | null;
  /** SERVER_LIMITS.stalledResponseTimeoutMs unless given (config API_STALLED_RESPONSE_TIMEOUT_MS). */
  readonly stalledResponseTimeoutMs?: number;
}

/** The HTTP server of the public API with SERVER_LIMITS applied. */
export function createApiServer(listener: RequestListener, options: ApiServerOptions = {}): Server {
  const server = createServer({ ...connectionTimeoutOptions(), maxHeaderSize: SERVER_LIMITS.maxHeaderBytes }, listener);
  server.maxConnections = SERVER_LIMITS.maxConnections;
  const counter = (name: string, help: string): Counter | undefined =>
    options.metrics ? new Counter({ name, help, registers: [options.metrics] }) : undefined;
  const dropped = counter(
    'api_connections_dropped_total',
    `Connections closed on arrival because ${SERVER_LIMITS.maxConnections} were open`,
  );
  if (dropped) server.on('drop', () => dropped.inc());
  const perClient = options.connectionsPerClient === undefined ? SERVER_LIMITS.connectionsPerClient : options.connectionsPerClient;
  if (perClient !== null) {
    const refused = counter(
      'api_connections_refused_total',
      'Connections closed on arrival because their client address already held its cap',
    );
    capConnectionsPerClient(server, { max: perClient, ...(refused ? { onRefused: () => refused.inc() } : {}) });
  }
  const stalled = counter(
    'api_connections_stalled_total',
    'Connections destroyed because the client took no byte of an answer for the stall timeout',
  );
  closeStalledResponses(server, {
    timeoutMs: options.stalledResponseTimeoutMs ?? SERVER_LIMITS.stalledResponseTimeoutMs,
    ...(stalled ? { onStalled: () => stalled.inc() } : {}),
  });
  return server;
}
