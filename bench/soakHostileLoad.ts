// The soak's hostile clients, in a process of their own: node bench/soakHostileLoad.ts --url BASE
// --seconds N [--rps 100] [--in-flight 64] [--slow-clients 200]. At a steady rate, the requests
// of soakHostileRequests.ts (distinct URLs from ever new IPv4 addresses and IPv6 /64s, many
// addresses of one /64, long and odd parameters, raw bytes the parser refuses), at most
// `in-flight` at once (a request due while that many are open is skipped and counted); beside
// them `slow-clients` sockets at all times that send a request head one byte every half second,
// or nothing at all (one in four), each replaced when the server closes it. Loopback only,
// bounded in time. Prints one JSON line: statuses per kind, errors, skipped, slow sockets.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { createRandom } from '../generator/random.ts';
import { addCounts } from './soakFigures.ts';
import { hostileRequest, type HostileRequest } from './soakHostileRequests.ts';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    seconds: { type: 'string', default: '180' },
    rps: { type: 'string', default: '100' },
    'in-flight': { type: 'string', default: '64' },
    'slow-clients': { type: 'string', default: '200' },
    seed: { type: 'string', default: '24' },
  },
});
if (!args.url) throw new Error('--url is required');
const base = new URL(args.url);
const port = Number(base.port);
const endAt = performance.now() + Number(args.seconds) * 1000;
const agent = new Agent({ keepAlive: true, maxSockets: Number(args['in-flight']) });
const statuses: Record<string, Record<string, number>> = {};
const count = (kind: string, outcome: string): void => void addCounts((statuses[kind] ??= {}), { [outcome]: 1 });
let skipped = 0;
let inFlight = 0;

/** Raw bytes on a socket of their own; the first status line back, or the error. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (received ||= `error ${error.code ?? error.message}`));
    socket.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? (received.startsWith('error') ? received : 'closed')));
    socket.write(bytes, 'latin1');
  });
}

function send(r: HostileRequest): Promise<string> {
  if (r.kind === 'raw') return raw(r.path);
  return new Promise((resolve) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path: r.path, agent, headers: { 'x-forwarded-for': r.client }, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', () => resolve('error response'));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    outgoing.end();
  });
}

/** How each slow client's connection ended: cut with a 408, closed by the server without a word, still open at the end, anything else. */
const slow = { opened: 0, cut408: 0, closedUnanswered: 0, openAtEnd: 0, other: 0 };

/** One slow client after another on one slot until the end: a trickling head, or silence. */
async function slowSlot(slot: number): Promise<void> {
  while (performance.now() < endAt - 1000) {
    const silent = slot % 4 === 0;
    slow.opened += 1;
    const ended = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      let ours = false;
      const stop = setTimeout(
        () => {
          ours = true;
          socket.destroy();
        },
        Math.max(0, endAt - performance.now()),
      );
      const trickle = silent ? undefined : setInterval(() => socket.write('a'), 500);
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(stop);
        clearInterval(trickle);
        resolve(ours ? 'open at end' : (received.split('\r\n')[0] ?? ''));
      });
      if (!silent) socket.write(`GET /api/v1/competitions HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.66.0.${slot % 250}\r\nX-Slow: `);
    });
    if (ended === 'open at end') slow.openAtEnd += 1;
    else if (ended.startsWith('HTTP/1.1 408')) slow.cut408 += 1;
    else if (ended === '') slow.closedUnanswered += 1;
    else slow.other += 1;
  }
}

// A fixed seed: two runs send the same hostile mix.
const seeded = createRandom(Number(args.seed));
const random = (): number => seeded.float();
const rps = Number(args.rps);
const maxInFlight = Number(args['in-flight']);
const slots = Array.from({ length: Number(args['slow-clients']) }, (_, i) => slowSlot(i));
const began = performance.now();
let due = 0;
while (performance.now() < endAt) {
  const target = Math.floor(((performance.now() - began) / 1000) * rps);
  for (; due < target; due++) {
    if (inFlight >= maxInFlight) {
      skipped += 1;
      continue;
    }
    const r = hostileRequest(random);
    inFlight += 1;
    void send(r).then((outcome) => {
      inFlight -= 1;
      count(r.kind, outcome);
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}
await Promise.all(slots);
while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
agent.destroy();
process.stdout.write(`${JSON.stringify({ statuses, skipped, slow })}\n`);
