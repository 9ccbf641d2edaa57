import { request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer } from './apiServer.ts';

// The public port's connection bounds on a real socket, with a plain handler in place of the
// app: the per-client cap (127.0.0.1 and 127.0.0.2 are two clients) and the stall timeout.

const BODY = Buffer.alloc(16 * 2 ** 20, 0x61);
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function start(options: Parameters<typeof createApiServer>[1]): Promise<number> {
  server = createApiServer((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, { 'Content-Length': BODY.length });
      res.end(BODY);
    } else res.end('ok');
  }, options);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server?.address() as AddressInfo).port;
}

function open(port: number, localAddress: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

function get(port: number, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function counter(metrics: Registry, name: string): Promise<number> {
  const text = await metrics.getSingleMetricAsString(name);
  return Number(/ (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createApiServer', () => {
  it('closes a client’s connections past its cap on arrival, counts them, and serves another client', async () => {
    const metrics = new Registry();
    const port = await start({ metrics, connectionsPerClient: 5, stalledResponseTimeoutMs: 60_000 });
    const opened = await Promise.all(Array.from({ length: 40 }, () => open(port, '127.0.0.1')));
    await settle(300);
    expect(opened.filter(({ socket }) => socket.destroyed).length).toBe(35);
    expect(await counter(metrics, 'api_connections_refused_total')).toBe(35);
    expect(await get(port, '/', '127.0.0.2')).toBe(200);
    // Slots come back as the client's connections close.
    for (const { socket } of opened) socket.destroy();
    await Promise.all(opened.map(({ closed }) => closed));
    await settle(50);
    expect(await get(port, '/', '127.0.0.1')).toBe(200);
  });

  it('applies no per-client cap when told there is none (behind trusted proxies)', async () => {
    const port = await start({ connectionsPerClient: null });
    const opened = await Promise.all(Array.from({ length: 80 }, () => open(port, '127.0.0.1')));
    await settle(300);
    expect(opened.filter(({ socket }) => socket.destroyed).length).toBe(0);
    for (const { socket } of opened) socket.destroy();
  });

  it('destroys a connection whose client stops reading a large answer, and never one that reads it slowly', async () => {
    const metrics = new Registry();
    const port = await start({ metrics, stalledResponseTimeoutMs: 1_000 });
    const stalled = await open(port, '127.0.0.1');
    stalled.socket.pause();
    stalled.socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n');
    const slow = await open(port, '127.0.0.2');
    let received = 0;
    let pauses = 0;
    const slowDone = new Promise<void>((resolve) => {
      slow.socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= BODY.length) resolve();
        else if (received > (pauses + 1) * 2 ** 20 && pauses < 4) {
          pauses += 1;
          slow.socket.pause();
          setTimeout(() => slow.socket.resume(), 600);
        }
      });
    });
    slow.socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n');
    const began = performance.now();
    while ((await counter(metrics, 'api_connections_stalled_total')) < 1 && performance.now() - began < 10_000) await settle(50);
    const cutAfterMs = performance.now() - began;
    expect(cutAfterMs).toBeGreaterThanOrEqual(1_000);
    expect(cutAfterMs).toBeLessThan(4_000);
    // What the client reads now ends short of the body: the server dropped the rest.
    let stalledReceived = 0;
    stalled.socket.on('data', (chunk: Buffer) => (stalledReceived += chunk.length));
    stalled.socket.resume();
    await stalled.closed;
    expect(stalledReceived).toBeLessThan(BODY.length);
    await slowDone;
    expect(pauses).toBe(4);
    expect(slow.socket.destroyed).toBe(false);
    expect(await counter(metrics, 'api_connections_stalled_total')).toBe(1);
    slow.socket.destroy();
  }, 20_000);
});
