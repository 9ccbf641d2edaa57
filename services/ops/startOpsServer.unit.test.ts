import { connect, type AddressInfo, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { OPS_SERVER_LIMITS, startOpsServer } from './startOpsServer.ts';

describe('startOpsServer readiness', () => {
  it('answers 503 at its deadline when the check hangs (a paused database), and 200 when it passes', async () => {
    let hang = true;
    const server = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      readinessTimeoutMs: 200,
      readiness: () => (hang ? new Promise(() => undefined) : Promise.resolve({ ready: true, checks: { mongo: true } })),
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health/ready`;
    try {
      const stuck = await fetch(url, { signal: AbortSignal.timeout(5000) });
      expect(stuck.status).toBe(503);
      expect(await stuck.json()).toEqual({ status: 'not ready' });
      hang = false;
      const ready = await fetch(url, { signal: AbortSignal.timeout(5000) });
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { mongo: true } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('exports the same check as health_ready at scrape time, so an idle instance that is not ready shows', async () => {
    let ready = false;
    const server = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      readinessTimeoutMs: 200,
      readiness: () => Promise.resolve({ ready, checks: { mongo: ready } }),
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    try {
      expect(await (await fetch(url, { signal: AbortSignal.timeout(5000) })).text()).toMatch(/^health_ready 0$/m);
      ready = true;
      expect(await (await fetch(url, { signal: AbortSignal.timeout(5000) })).text()).toMatch(/^health_ready 1$/m);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps the public port’s connection timeouts and closes connections past its cap on arrival', async () => {
    const server = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      readiness: () => Promise.resolve({ ready: true, checks: {} }),
    });
    const { port } = server.address() as AddressInfo;
    const sockets: Socket[] = [];
    try {
      expect(server.headersTimeout).toBe(OPS_SERVER_LIMITS.headersTimeoutMs);
      expect(server.requestTimeout).toBe(OPS_SERVER_LIMITS.requestTimeoutMs);
      expect(server.keepAliveTimeout).toBe(OPS_SERVER_LIMITS.keepAliveTimeoutMs);
      const extra = 20;
      await Promise.all(
        Array.from(
          { length: OPS_SERVER_LIMITS.maxConnections + extra },
          () =>
            new Promise<void>((resolve) => {
              const socket = connect({ host: '127.0.0.1', port }, resolve);
              socket.on('error', () => undefined);
              sockets.push(socket);
            }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sockets.filter((socket) => socket.destroyed).length).toBe(extra);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
