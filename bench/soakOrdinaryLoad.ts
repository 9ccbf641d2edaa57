// The soak's ordinary clients, in a process of their own so the hostile clients' work never
// delays their clocks: node bench/soakOrdinaryLoad.ts --url BASE --urls FILE.json --seconds N
// --rps N [--connections 64] [--clients 1000]. A steady rate of GETs (autocannon's overall rate,
// latencies corrected for coordinated omission) over a fixed mix of listings and details, about a
// third of them conditional with the ETag the same URL last answered (a 304 when unchanged), each
// from one of `clients` IPv4 addresses through the trusted proxy's X-Forwarded-For, so no client
// comes near its rate-limit budget. Prints one JSON line of figures.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    urls: { type: 'string' },
    seconds: { type: 'string', default: '180' },
    rps: { type: 'string', default: '200' },
    connections: { type: 'string', default: '64' },
    clients: { type: 'string', default: '1000' },
  },
});
if (!args.url || !args.urls) throw new Error('--url and --urls are required');

const paths = JSON.parse(readFileSync(args.urls, 'utf8')) as string[];
const etags = new Map<string, string>();
const clients = Number(args.clients);
let n = 0;

interface Sent {
  path?: string;
}

const result = await autocannon({
  url: args.url,
  connections: Number(args.connections),
  overallRate: Number(args.rps),
  duration: Number(args.seconds),
  timeout: 30,
  requests: [
    {
      setupRequest: (request, context) => {
        n += 1;
        const path = paths[Math.floor(Math.random() * paths.length)]!;
        (context as Sent).path = path;
        const client = n % clients;
        const headers: Record<string, string> = { 'x-forwarded-for': `10.77.${client >> 8}.${client & 255}` };
        const etag = etags.get(path);
        if (etag && n % 3 === 0) headers['if-none-match'] = etag;
        return { ...request, path, headers: { ...request.headers, ...headers } };
      },
      onResponse: (status, _body, context, headers) => {
        const path = (context as Sent).path;
        // autocannon hands the header names as the server wrote them (`ETag`).
        const etag = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'etag')?.[1];
        if (path && status === 200 && typeof etag === 'string') etags.set(path, etag);
      },
    },
  ],
});

const statuses: Record<string, number> = {};
for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = count ?? 0;
process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
