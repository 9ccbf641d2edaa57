import { createServer, type RequestListener, type Server } from 'node:http';
import { Counter, type Registry } from 'prom-client';

/**
 * What one connection may cost the public port (decisions.md, "Hostile input"). A client gets
 * 10 s to send its request head and 30 s for the whole request, and an idle keep-alive
 * connection is closed after 5 s; the parser refuses a head (request line and headers) over
 * 16 KB with 431, and the app a request line over 8 KB with 414.
 */
export const SERVER_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
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
  /** How often the header and request timeouts are enforced: Node's default (30 s) would let a slow head live up to 40 s. */
  timeoutCheckIntervalMs: 1_000,
} as const;

/** The HTTP server of the public API with SERVER_LIMITS applied; `metrics` gets the dropped-connection counter. */
export function createApiServer(listener: RequestListener, options: { metrics?: Registry } = {}): Server {
  const server = createServer(
    {
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
      keepAliveTimeout: SERVER_LIMITS.keepAliveTimeoutMs,
      maxHeaderSize: SERVER_LIMITS.maxHeaderBytes,
      connectionsCheckingInterval: SERVER_LIMITS.timeoutCheckIntervalMs,
    },
    listener,
  );
  server.maxConnections = SERVER_LIMITS.maxConnections;
  if (options.metrics) {
    const dropped = new Counter({
      name: 'api_connections_dropped_total',
      help: `Connections closed on arrival because ${SERVER_LIMITS.maxConnections} were open`,
      registers: [options.metrics],
    });
    server.on('drop', () => dropped.inc());
  }
  return server;
}
