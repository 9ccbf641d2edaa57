import { createServer, type Server } from 'node:net';

/** A port the OS just had free on 127.0.0.1 (for a private server or process started next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

type Ports<N extends number, R extends number[] = []> = R['length'] extends N ? R : Ports<N, [...R, number]>;

/**
 * `n` distinct ports free on 127.0.0.1: all held open together while chosen, then released.
 * (Asking `freePort` n times can hand out the same port twice: the OS may reuse a port it just freed.)
 */
export async function freePorts<N extends number>(n: N): Promise<Ports<N>> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports as Ports<N>;
}
