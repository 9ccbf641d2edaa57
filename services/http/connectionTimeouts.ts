import type { ServerOptions } from 'node:http';

/**
 * How long one connection may hold a port of either process (decisions.md, "Hostile input"),
 * the public API's and the operators' alike: a client gets 10 s to send its request head and
 * 30 s for the whole request, an idle keep-alive connection is closed after 5 s, and an answer
 * the client stops reading is dropped once no byte of it has left for 30 s
 * (closeStalledResponses; the API's is configurable).
 */
export const CONNECTION_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  stalledResponseTimeoutMs: 30_000,
  /** How often the header and request timeouts are enforced: Node's default (30 s) would let a slow head live up to 40 s. */
  timeoutCheckIntervalMs: 1_000,
} as const;

/** The options of `http.createServer` that apply CONNECTION_TIMEOUTS' read-side timeouts. */
export function connectionTimeoutOptions(): ServerOptions {
  return {
    headersTimeout: CONNECTION_TIMEOUTS.headersTimeoutMs,
    requestTimeout: CONNECTION_TIMEOUTS.requestTimeoutMs,
    keepAliveTimeout: CONNECTION_TIMEOUTS.keepAliveTimeoutMs,
    connectionsCheckingInterval: CONNECTION_TIMEOUTS.timeoutCheckIntervalMs,
  };
}
