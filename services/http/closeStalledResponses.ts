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
  /** Bytes whose writes have completed (bytesWritten less what still waits in the stream). */
  flushed: number;
  /** Bytes of the write in flight that the kernel has not taken yet (libuv's write queue). */
  queued: number;
  /** When either last moved while bytes were waiting. */
  since: number;
}

/** What the sockets of a server show of their writes; `queued` is libuv's, when the handle has it. */
export interface WriteCounters {
  readonly writableLength: number;
  readonly bytesWritten: number;
  readonly queued?: number | undefined;
}

/**
 * libuv's count of bytes handed to the socket that the kernel has not taken. A body sent in one
 * write completes only when its last byte leaves, so the stream's own counters stand still
 * while a client reads a large one slowly; this one moves with every byte the kernel takes.
 */
function queuedOf(socket: Socket): number | undefined {
  return (socket as unknown as { _handle?: { writeQueueSize?: unknown } | null })._handle?.writeQueueSize as number | undefined;
}

/**
 * Whether a socket has waited `timeoutMs` with bytes it could not hand to the kernel and none
 * taken since: the client asked for a body and does not read it. Pure bookkeeping over the
 * socket's counters, so a test can drive it; `progress` holds each socket's record.
 */
export function isStalled(
  socket: object,
  counters: WriteCounters,
  progress: Map<object, Progress>,
  now: number,
  timeoutMs: number,
): boolean {
  if (counters.writableLength === 0) {
    // Nothing waits: an idle socket, or one whose answer is still being worked out. Idle reads
    // are the server's header, request and keep-alive timeouts' business, not this one's.
    progress.delete(socket);
    return false;
  }
  const flushed = counters.bytesWritten - counters.writableLength;
  const queued = counters.queued ?? 0;
  const seen = progress.get(socket);
  if (seen === undefined || seen.flushed !== flushed || seen.queued !== queued) {
    progress.set(socket, { flushed, queued, since: now });
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
      const counters = { writableLength: socket.writableLength, bytesWritten: socket.bytesWritten ?? 0, queued: queuedOf(socket) };
      if (!isStalled(socket, counters, progress, at, options.timeoutMs)) continue;
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
