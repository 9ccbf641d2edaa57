// In-process throughput of the HTTP pipeline alone (request id, CORS, rate limit, errors,
// router and query validation, ETag/304, response cache) on a cache hit and on a 304, with no
// database: the cost our middlewares add per request. autocannon runs in the same process, so
// compare figures of one machine and one run only, e.g. this commit against an older checkout
// (copy the file there; `getDataVersion` ignores its arguments so both signatures fit).
//
//   node bench/httpPipeline.ts [label]
//
// Figures measured with it are in docs/performance.md (The API).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Koa from 'koa';
import { httpPipeline } from '../api/http/index.ts';

const app = new Koa();
app.silent = true;
const pipeline = httpPipeline({
  clock: Date.now,
  rateLimit: { limit: 1_000_000_000 },
  cache: { maxBytes: 10_000_000, getDataVersion: () => 'v1' },
});
for (const middleware of pipeline) app.use(middleware);
const body = { data: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `Competition ${i}`, city: 'Riga' })), meta: { page: 1 } };
app.use((ctx) => {
  ctx.body = body;
});
const handle = app.callback();
const server = createServer((req, res) => void handle(req, res));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/competitions?limit=20`;
const etag = (await fetch(url)).headers.get('etag') ?? '';
const label = process.argv[2] ?? 'this checkout';
for (const [name, headers] of [
  ['cache hit', {}],
  ['304', { 'if-none-match': etag }],
] as const) {
  const result = await autocannon({ url, connections: 20, duration: 5, headers });
  console.log(`${label} ${name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
}
server.close();
