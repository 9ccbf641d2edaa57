const MAX_KEY_LENGTH = 64;

/**
 * The rate-limit key of a client address (`ctx.ip`: the socket address, or behind
 * `app.maxIpsCount` trusted proxies the address the outermost one saw). `::ffff:203.0.113.7`
 * (IPv4 on a dual-stack socket) counts as `203.0.113.7`, so one client has one budget; the
 * key is bounded because a trusted proxy still forwards what the client wrote.
 */
export function clientIp(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  const address = mapped?.[1] ?? (ip === '' ? 'unknown' : ip);
  return address.slice(0, MAX_KEY_LENGTH);
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
