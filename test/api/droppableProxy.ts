import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DroppableProxy {
  /** `http://127.0.0.1:<port>` of the proxy. */
  origin: string;
  /** The head (request line and header lines) of each request that went through, in order. */
  heads: string[];
  /** Where connections go from now on. */
  target(port: number): void;
  /** Cuts every open connection, both ways, as a network failure would. */
  drop(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1:<free port> in front of an HTTP server: what a browser sees as the
 * network, so a test can cut its connections mid-stream and read what it sends on reconnecting.
 */
export async function droppableProxy(): Promise<DroppableProxy> {
  let port = 0;
  const heads: string[] = [];
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    let pending = '';
    client.on('data', (chunk: Buffer) => {
      // Request heads as they arrive (a keep-alive connection carries several); bodies are not expected.
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        heads.push(pending.slice(0, end));
        pending = pending.slice(end + 4);
      }
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heads,
    target: (to) => void (port = to),
    drop() {
      const n = open.size;
      for (const socket of open) socket.destroy();
      return n;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
