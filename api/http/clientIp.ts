import ipaddr from 'ipaddr.js';

const MAX_KEY_LENGTH = 64;

/** An IPv4 address as a socket reports it (decimal octets, no leading zero), also IPv4-mapped: its own key as written. */
const CANONICAL_IPV4 = /^(?:::ffff:)?((?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))$/i;

/**
 * The rate-limit key of a client address (`ctx.ip`: the socket address, or behind
 * `app.maxIpsCount` trusted proxies the address the outermost one saw). An IPv4 address is its
 * own key, also when it arrives IPv4-mapped (`::ffff:203.0.113.7` on a dual-stack socket). An
 * IPv6 address counts under its /64 prefix (`2001:db8:0:7::/64`): one household or server is
 * handed a whole /64, so keyed per address it would own 2^64 budgets. Compressed and expanded
 * spellings give one key and a zone id (`%eth0`) is dropped. What is no address at all (a proxy
 * forwarding what its client wrote) is its own key, cut to a bounded length.
 */
export function clientIp(ip: string): string {
  if (ip === '') return 'unknown';
  // Every request asks, and nearly every address is already in this form: one regular expression
  // instead of ipaddr's parse and print (which give the same key for it).
  const ipv4 = CANONICAL_IPV4.exec(ip);
  if (ipv4) return ipv4[1]!;
  if (!ipaddr.isValid(ip)) return ip.slice(0, MAX_KEY_LENGTH);
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * Koa's own proxy handling: behind N trusted proxies `ctx.ip` is the N-th `X-Forwarded-For`
 * entry from the right (the address the outermost trusted proxy saw), the leftmost one when
 * there are fewer; with 0 the header is ignored and `ctx.ip` is the socket address.
 */
export function trustProxies(app: { proxy: boolean; maxIpsCount: number }, trustedProxyCount: number): void {
  app.proxy = trustedProxyCount > 0;
  app.maxIpsCount = trustedProxyCount;
}
