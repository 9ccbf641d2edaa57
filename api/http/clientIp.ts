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

/** `a.b.c.d:port` or `[v6]:port`, as some proxies write a forwarded address. */
const WITH_PORT = /^(?:\[([^\]]+)\]|((?:\d{1,3}\.){3}\d{1,3})):\d{1,5}$/;

/** The IP address `entry` names (a port some proxies add is dropped), or null when it names none. */
export function forwardedAddress(entry: string): string | null {
  const withPort = WITH_PORT.exec(entry);
  const address = withPort ? (withPort[1] ?? withPort[2] ?? '') : entry;
  if (CANONICAL_IPV4.test(address)) return address;
  if (ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address)) return address;
  return null;
}

/**
 * The client's address behind trusted proxies. `trusted` holds the `X-Forwarded-For` entries
 * the trusted proxies wrote (koa's `ctx.ips`: the last N), the client's first. What a proxy
 * forwards as its client's address is not always one (`unknown`, an obfuscated token, a value
 * a proxy passed on from the client when fewer proxies stood in front than configured): such an
 * entry must not become a rate-limit key of its own, one per made-up value. The nearest valid
 * entry after it is used instead, an address a trusted proxy saw, and the socket address when
 * there is none (the innermost proxy).
 */
export function forwardedClient(trusted: readonly string[], socketAddress: string): string {
  for (const entry of trusted) {
    const address = forwardedAddress(entry);
    if (address !== null) return address;
  }
  return socketAddress;
}

const CLIENT_ADDRESS: unique symbol = Symbol('clientAddress');

interface KoaRequestLike {
  readonly ips: string[];
  readonly socket: { readonly remoteAddress?: string | undefined };
  [CLIENT_ADDRESS]?: string;
}

/**
 * Koa's own proxy handling, with `ctx.ip` read through forwardedClient: behind N trusted proxies
 * the N-th `X-Forwarded-For` entry from the right (the address the outermost trusted proxy saw),
 * the leftmost one when there are fewer, or the nearest valid one after it when it is no IP
 * address; with 0 the header is ignored and `ctx.ip` is the socket address.
 */
export function trustProxies(app: { proxy: boolean; maxIpsCount: number; request: object }, trustedProxyCount: number): void {
  app.proxy = trustedProxyCount > 0;
  app.maxIpsCount = trustedProxyCount;
  Object.defineProperty(app.request, 'ip', {
    configurable: true,
    get(this: KoaRequestLike): string {
      return (this[CLIENT_ADDRESS] ??= forwardedClient(this.ips, this.socket.remoteAddress ?? ''));
    },
    set(this: KoaRequestLike, address: string) {
      this[CLIENT_ADDRESS] = address;
    },
  });
}
