import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface StalledResponseOptions {
  /** How long a socket may hold bytes the client does not take before it is destroyed. */
  readonly timeoutMs: number;
  /** How often the open sockets are looked at (the bound is kept to within this). */
  readonly checkEveryMs?: number;
  /** Called once per socket destroyed for a stall (a metric). */
  readonly onStalled?: () => void;
  /** Milliseconds, for tests; `performance.now` otherwise. */
  readonly now?: () => number;
}

interface Progress {
  /** Bytes the kernel has taken so far (bytesWritten less what is still waiting in the stream). */
  flushed: number;
  /** When `flushed` last moved while bytes were waiting. */
  since: number;
}

/**
 * Whether `socket` has waited `timeoutMs` with bytes it could not hand to the kernel and none
 * taken since: the client asked for a body and does not read it. Pure bookkeeping over the
 * socket's counters, so a test can drive it; `progress` is the socket's own record.
 */
export function isStalled(
  socket: Pick<Socket, 'writableLength' | 'bytesWritten'>,
  progress: Map<object, Progress>,
  now: number,
  timeoutMs: number,
): boolean {
  if (socket.writableLength === 0) {
    // Nothing waits: an idle socket, or one whose answer is still being worked out. Idle reads
    // are the server's header, request and keep-alive timeouts' business, not this one's.
    progress.delete(socket);
    return false;
  }
  const flushed = (socket.bytesWritten ?? 0) - socket.writableLength;
  const seen = progress.get(socket);
  if (seen === undefined || seen.flushed !== flushed) {
    progress.set(socket, { flushed, since: now });
    return false;
  }
  return now - seen.since >= timeoutMs;
}

/**
 * Destroys every socket of `server` whose response has not moved for `timeoutMs`: bytes wait to
 * be sent and the client takes none (it asked for a large body and stopped reading). Unlike
 * `socket.setTimeout`, a socket idle on the read side (a request being answered, a keep-alive
 * pause) is never cut, nor a long streamed body that the client keeps reading, however slowly:
 * any byte the kernel takes starts the wait again. One timer per server, only while sockets
 * are open.
 */
export function closeStalledResponses(server: Server, options: StalledResponseOptions): void {
  const checkEveryMs = options.checkEveryMs ?? Math.min(1_000, options.timeoutMs);
  const now = options.now ?? (() => performance.now());
  const sockets = new Set<Socket>();
  const progress = new Map<object, Progress>();
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    const at = now();
    for (const socket of sockets) {
      if (!isStalled(socket, progress, at, options.timeoutMs)) continue;
      sockets.delete(socket);
      progress.delete(socket);
      socket.destroy();
      options.onStalled?.();
    }
  };
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    sockets.add(socket);
    timer ??= setInterval(check, checkEveryMs).unref();
    socket.once('close', () => {
      sockets.delete(socket);
      progress.delete(socket);
      if (sockets.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    });
  });
}
