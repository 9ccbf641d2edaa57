import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientIp } from './http/clientIp.ts';

/**
 * Closes a new connection at once when its client already holds `max` open ones, so one client
 * cannot take the server's connection slots from the others (decisions.md, "Hostile input":
 * a bound on connections per client). The client is the socket's address under the rate
 * limit's key (clientIp: an IPv4 address, an IPv6 /64), so only use this when the socket address
 * is the client's, not a trusted proxy's. The table holds a count per client with an open
 * connection and no more, so it is bounded by the server's own connection cap.
 */
export function capConnectionsPerClient(server: Server, options: { max: number; onRefused?: () => void }): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = clientIp(socket.remoteAddress ?? '');
    const held = open.get(key) ?? 0;
    if (held >= options.max) {
      socket.destroy();
      options.onRefused?.();
      return;
    }
    open.set(key, held + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
