import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Stops listening; a plain function (no `this`), so it may be passed on alone. */
  close: () => Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1:<free port>. Its handler is made from its origin once it listens,
 * so an app can name that origin as its public URL; until then it answers 503.
 */
export async function listenOnFreePort(handlerFor: (origin: string) => RequestListener): Promise<Listening> {
  let handle: RequestListener = (_req, res) => void res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    handle = handlerFor(origin);
  } catch (error) {
    // Nobody else holds the server yet, so nobody else could close it.
    server.close();
    throw error;
  }
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
