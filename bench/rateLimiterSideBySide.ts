// Our rate limiter beside rate-limiter-flexible, side by side in one run:
//   npm install --no-save --prefix .run/rlf rate-limiter-flexible@11.4.0
//   node --expose-gc bench/rateLimiterSideBySide.ts --rlf .run/rlf [--clients 100000] [--requests 5000] [--rounds 5]
// Prints, for each: the most requests admitted in 60 s across a window boundary, memory per client
// IP in process, a request's cost in memory, on Redis (REDIS_URL, default the local one) and with
// Redis down, Redis memory per client, and what the fallback knows when an outage starts.
// Without --rlf only ours is measured. Figures go to api/http/README.md, not into code.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import * as contenders from './rateLimiterContenders.ts';
import type { Consume, RlfModule } from './rateLimiterContenders.ts';
import { clientKey, costPerRequest, deleteKeys, heapPerClient, median, type Cost } from './rateLimiterMeasures.ts';

const { values: args } = parseArgs({
  options: {
    rlf: { type: 'string' },
    clients: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '5' },
    child: { type: 'string' },
  },
});
const rlf: RlfModule | undefined = args.rlf === undefined ? undefined : contenders.loadRlf(args.rlf);
const clients = Number(args.clients);
const T0 = 1_700_000_000_000;

if (args.child !== undefined) {
  // One limiter per process, so neither measures the other's garbage.
  const consume = args.child === 'ours' ? contenders.oursInMemory().consume : contenders.rlfInMemory(rlf as RlfModule);
  process.stdout.write(String(await heapPerClient(consume, clients, T0)));
  process.exit(0);
}

const row = (label: string, ours: string, theirs: string): void =>
  console.log(`${label.padEnd(58)} ${ours.padStart(12)} ${theirs.padStart(12)}`);
row(`medians of ${args.rounds} interleaved rounds`, 'ours', rlf ? 'rlf' : '(no --rlf)');

/** Admitted in 60 s: 1 request at 0 s, 299 at 59 s, then 300 at 60.5 s (a fixed window restarts at 60 s). */
async function boundary(consume: Consume, setNow: (ms: number) => void): Promise<number> {
  let admitted = 0;
  for (const [at, count] of [
    [0, 1],
    [59_000, 299],
    [60_500, 300],
  ] as const) {
    setNow(T0 + at);
    for (let i = 0; i < count; i += 1) if ((await consume('198.51.100.7', T0 + at)).allowed && at > 0) admitted += 1;
  }
  return admitted;
}
const realNow = Date.now;
let fakeNow = T0;
const ours = await boundary(contenders.oursInMemory().consume, () => undefined);
let theirs = '';
if (rlf) {
  Date.now = () => fakeNow;
  theirs = String(await boundary(contenders.rlfInMemory(rlf), (ms) => (fakeNow = ms)));
  Date.now = realNow;
}
row('admitted from 59 s to 60.5 s (limit 300 per 60 s)', String(ours), theirs);

const child = (name: string): string => {
  const run = spawnSync(process.execPath, [
    '--expose-gc',
    import.meta.filename,
    '--child',
    name,
    '--clients',
    String(clients),
    ...(args.rlf ? ['--rlf', args.rlf] : []),
  ]);
  if (run.status !== 0) throw new Error(`${name}: ${run.stderr.toString()}`);
  return Number(run.stdout.toString()).toFixed(0);
};
row(`memory per client IP in process, ${clients} IPs (B)`, child('ours'), rlf ? child('rlf') : '');

const rounds = Number(args.rounds);
const requests = Number(args.requests);
const fmt = (costs: Cost[]): string => {
  const wall = median(costs.map((c) => c.wallUs));
  const cpu = median(costs.map((c) => c.cpuUs));
  return `${wall.toFixed(1)}/${cpu.toFixed(1)}`;
};
/** Interleaved rounds, the median of each: this machine's noise moves single figures a lot. */
async function compare(label: string, make: () => [Consume, Consume | undefined], count: number): Promise<void> {
  const [a, b]: [Cost[], Cost[]] = [[], []];
  for (let round = 0; round < rounds; round += 1) {
    const [mine, other] = make();
    a.push(await costPerRequest(mine, count, T0));
    if (other) b.push(await costPerRequest(other, count, T0));
  }
  row(`${label} (µs wall/cpu)`, fmt(a), b.length > 0 ? fmt(b) : '');
}
await compare('a request in memory', () => [contenders.oursInMemory().consume, rlf ? contenders.rlfInMemory(rlf) : undefined], 50_000);

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
await new Promise((ready) => redis.once('ready', ready));
const prefix = `bench-rate-limit-${process.pid}`;
let run = 0;
// rate-limiter-flexible puts its own ':' between prefix and key.
const prefixes = (): [string, string] => [`${prefix}:ours:${run}:`, `${prefix}:rlf:${run++}`];
await compare(
  'a request on Redis',
  () => {
    const [p1, p2] = prefixes();
    return [contenders.oursOnRedis(redis, p1), rlf ? contenders.rlfOnRedis(rlf, redis, p2, false) : undefined];
  },
  requests,
);

const [p1, p2] = prefixes();
await contenders.oursOnRedis(redis, p1)(clientKey(1), T0);
const spread = contenders.oursOnRedis(redis, p1);
for (let s = 0; s < 60; s += 1) await spread(clientKey(2), T0 + s * 1000);
if (rlf) await contenders.rlfOnRedis(rlf, redis, p2, false)(clientKey(1), T0);
const usage = async (key: string): Promise<string> => String(await redis.call('MEMORY', 'USAGE', key));
row('Redis memory per client, one request (B)', await usage(`${p1}${clientKey(1)}`), rlf ? await usage(`${p2}:${clientKey(1)}`) : '');
row(
  'Redis memory per client, busy in each of 60 seconds (B)',
  await usage(`${p1}${clientKey(2)}`),
  rlf ? await usage(`${p2}:${clientKey(1)}`) : '',
);

// Redis down: a client on a closed port, set up as sharedRateLimitStore sets its own.
const down = (): Redis => {
  const client = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
  client.on('error', () => undefined);
  return client;
};
const downClients: Redis[] = [];
await compare(
  'a request, Redis down',
  () => {
    const [c1, c2] = [down(), down()];
    downClients.push(c1, c2);
    return [contenders.oursWithFallback(c1, 'x:'), rlf ? contenders.rlfOnRedis(rlf, c2, 'x:', true) : undefined];
  },
  50_000,
);

/** A client spends its budget on Redis, then Redis goes: what the instance admits it in the same window. */
async function outageStart(make: (client: Redis) => Consume): Promise<number> {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  await new Promise((ready) => client.once('ready', ready));
  const consume = make(client);
  for (let i = 0; i < 300; i += 1) await consume('203.0.113.9', T0 + 1000);
  client.disconnect();
  let admitted = 0;
  for (let i = 0; i < 300; i += 1) if ((await consume('203.0.113.9', T0 + 2000)).allowed) admitted += 1;
  return admitted;
}
const [o1, o2] = prefixes();
row(
  'admitted after its 300, Redis gone in the same window',
  String(await outageStart((c) => contenders.oursWithFallback(c, o1))),
  rlf ? String(await outageStart((c) => contenders.rlfOnRedis(rlf, c, o2, true))) : '',
);

await deleteKeys(redis, `${prefix}:*`);
for (const client of downClients) client.disconnect();
redis.disconnect();
