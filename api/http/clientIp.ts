export interface ClientIpSource {
  /** The raw `X-Forwarded-For` header, if any. */
  readonly forwardedFor: string | undefined;
  /** The socket's peer address. */
  readonly remoteAddress: string | undefined;
  /** Number of trusted proxies in front of the API; 0 trusts no header. */
  readonly trustedProxyCount: number;
}

const MAX_KEY_LENGTH = 64;

/**
 * The address the rate limit counts against: the socket address, or, behind N trusted
 * proxies, the N-th `X-Forwarded-For` entry from the right (the address the outermost
 * trusted proxy saw), like Koa's `app.proxy` with `maxIpsCount = N`. With fewer entries than
 * N, the leftmost one.
 */
export function clientIp(source: ClientIpSource): string {
  const { forwardedFor, remoteAddress, trustedProxyCount } = source;
  let address = remoteAddress ?? '';
  if (trustedProxyCount > 0 && forwardedFor !== undefined) {
    const hops = forwardedFor
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '');
    address = hops.slice(-trustedProxyCount)[0] ?? address;
  }
  return normalizeAddress(address).slice(0, MAX_KEY_LENGTH);
}

/** `::ffff:203.0.113.7` (IPv4 on a dual-stack socket) counts as `203.0.113.7`. */
function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped?.[1] ?? (address === '' ? 'unknown' : address);
}
