import type { Redis } from 'ioredis';
import type { Consume } from './rateLimiterContenders.ts';

/** Half IPv4 addresses, half IPv6 /64 keys, as clientIp makes them: a key's length must not change the cost. */
export function clientKey(i: number): string {
  return i % 2 === 0
    ? `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`
    : `2001:db8:${(i >>> 16).toString(16)}:${(i & 0xffff).toString(16)}::/64`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function usedBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Bytes the limiter holds per client after one request from each of `clients` distinct IPs, after a full GC. */
export async function heapPerClient(consume: Consume, clients: number, t0: number): Promise<number> {
  await consume(clientKey(clients + 1), t0);
  const before = usedBytes();
  for (let i = 0; i < clients; i += 1) await consume(clientKey(i), t0 + Math.floor(i / 10));
  return (usedBytes() - before) / clients;
}

export interface Cost {
  readonly wallUs: number;
  readonly cpuUs: number;
}

/** Microseconds per request, one after another (as one connection's requests), over 1,000 clients after a warm-up. */
export async function costPerRequest(consume: Consume, requests: number, t0: number): Promise<Cost> {
  for (let i = 0; i < 1000; i += 1) await consume(clientKey(i), t0);
  const cpu = process.cpuUsage();
  const began = performance.now();
  for (let i = 0; i < requests; i += 1) await consume(clientKey(i % 1000), t0 + i);
  const wallUs = ((performance.now() - began) * 1000) / requests;
  const used = process.cpuUsage(cpu);
  return { wallUs, cpuUs: (used.user + used.system) / requests };
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
