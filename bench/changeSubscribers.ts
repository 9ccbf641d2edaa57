// Subscribers of the change feed's event stream, in a process of their own (bench/changes.ts forks
// several, so neither one process's descriptors nor one core's event loop bounds their number),
// from several loopback addresses, as many clients would be:
//   node bench/changeSubscribers.ts '<json SubscriberOptions>'     (forked with an IPC channel)
// Every subscriber is a raw TCP connection that counts the events it receives; the sampled ones
// also parse them and report each change's resource id with the instant it arrived, which the
// parent matches to the instant it produced the event.
import { connect, type Socket } from 'node:net';
import { SseParser } from './sseParser.ts';

export interface SubscriberOptions {
  /** `http://host:port/path?query` of the stream. */
  url: string;
  /** Subscribers in this process. */
  count: number;
  /** Of those, the first `sampled` parse what they receive and report it. */
  sampled: number;
  /** Index of this process's first subscriber among all of them. */
  firstIndex: number;
  /** Connections opened at once: more would overflow the listener's accept queue. */
  connectBatch: number;
  /** Subscribers per source address (127.1.x.y, all loopback): each address is one client to the API's per-client stream cap and rate limit. */
  perAddress: number;
}

/** The loopback address subscriber `n` (of all of them) connects from. */
export function sourceAddress(n: number, perAddress: number): string {
  const k = Math.floor(n / perAddress);
  return `127.1.${Math.floor(k / 250)}.${1 + (k % 250)}`;
}

/** From a worker to its parent. */
export type SubscriberReport =
  | { kind: 'connected'; count: number; failed: number }
  | { kind: 'samples'; samples: [subscriber: number, resourceId: string, receivedAt: number][] }
  | { kind: 'totals'; events: number[]; bytes: number; dropped: number };

/** From the parent: report the totals and exit. */
export type SubscriberCommand = { kind: 'stop' };

const options = JSON.parse(process.argv[2] ?? '{}') as SubscriberOptions;
const send = (report: SubscriberReport): void => void process.send?.(report);
const target = new URL(options.url);
const request = Buffer.from(
  `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n`,
);
// Every event the API writes has one `id:` line; counting them counts events without parsing.
const ID_LINE = Buffer.from('\nid:');
const events = new Array<number>(options.count).fill(0);
const sockets: Socket[] = [];
let bytes = 0;
let dropped = 0;
let pending: [number, string, number][] = [];

function open(i: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      localAddress: sourceAddress(options.firstIndex + i, options.perAddress),
    });
    const parser = i < options.sampled ? new SseParser() : undefined;
    let tail = Buffer.alloc(0);
    socket.setNoDelay(true);
    socket.once('connect', () => {
      socket.write(request);
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.on('close', () => (dropped += 1));
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (parser !== undefined) {
        const receivedAt = performance.timeOrigin + performance.now();
        for (const event of parser.push(chunk.toString('latin1'))) {
          events[i]! += 1;
          const id = /"id":"([^"]+)"/.exec(event.data)?.[1];
          if (id !== undefined) pending.push([options.firstIndex + i, id, receivedAt]);
        }
        return;
      }
      // The previous chunk's last bytes, in case an `id:` line began across the two.
      const seen = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      for (let at = seen.indexOf(ID_LINE); at !== -1; at = seen.indexOf(ID_LINE, at + ID_LINE.length)) events[i]! += 1;
      tail = Buffer.from(seen.subarray(Math.max(0, seen.length - (ID_LINE.length - 1))));
    });
    sockets.push(socket);
  });
}

let failed = 0;
for (let i = 0; i < options.count; i += options.connectBatch) {
  const batch = await Promise.all(Array.from({ length: Math.min(options.connectBatch, options.count - i) }, (_, k) => open(i + k)));
  failed += batch.filter((ok) => !ok).length;
}
send({ kind: 'connected', count: options.count - failed, failed });

const flush = setInterval(() => {
  if (pending.length === 0) return;
  send({ kind: 'samples', samples: pending });
  pending = [];
}, 250);

process.on('message', (command: SubscriberCommand) => {
  if (command.kind !== 'stop') return;
  clearInterval(flush);
  if (pending.length > 0) send({ kind: 'samples', samples: pending });
  const closing = dropped;
  for (const socket of sockets) socket.destroy();
  send({ kind: 'totals', events, bytes, dropped: closing });
  process.disconnect();
});
