import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { LogWriteQueue } from './logWriteQueue.ts';

export interface LogDestination {
  /** Takes one line (or several), written with the rest of the event-loop turn's; never blocks, never throws. */
  write(text: string): void;
  /** Resolves once every queued line is written, or after `timeoutMs`, whichever comes first. */
  drain(timeoutMs: number): Promise<void>;
  /** Lines dropped so far because the reader did not keep up, went away or the disk was full. */
  readonly dropped: number;
}

export interface LogDestinationOptions {
  /** Most bytes held while the reader is slow; lines beyond are dropped and counted. */
  maxQueuedBytes?: number;
  /** Wait before writing again after the reader's pipe was full. */
  retryMs?: number;
}

/**
 * Where a process's log lines go (stdout by default), written so that no state of the reader can
 * stop the process: not a full pipe (its reader paused or stuck), not a reader that went away,
 * not a full disk. pino's own stdout destination can: at exit it flushes synchronously and, on a
 * full blocking pipe or on EPIPE, retries forever, so `process.exit` (even the forced exit after
 * the shutdown grace period) never returns; and a write parked in libuv's thread pool on a full
 * pipe also keeps the process from exiting, since exit joins those threads.
 *
 * So a pipe or terminal is reopened through /proc as a second, non-blocking handle (its own file
 * status flags: nothing else writing to the same pipe changes mode), and every write is a
 * synchronous `write(2)` that returns at once. What the reader cannot take yet waits in a
 * bounded queue retried on an unref'd timer; anything else (EPIPE, ENOSPC, EIO) drops the line
 * and counts it, and the next line tries again, so logging resumes when the disk has room. A
 * regular file is written through the descriptor itself (a file never blocks). A socket or a
 * system without /proc keeps the descriptor as it is, which blocks like pino's own would.
 */
export function createLogDestination(fd = 1, options: LogDestinationOptions = {}): LogDestination {
  const retryMs = options.retryMs ?? 50;
  const queue = new LogWriteQueue(nonBlockingHandle(fd), options.maxQueuedBytes ?? 4 * 1024 * 1024);
  // Lines of this event-loop turn, written together when it ends: one write(2) per turn, as one
  // per line cost the API's request log more CPU under load than formatting the lines (measured:
  // see docs/performance.md, The API).
  let turn: string[] = [];
  let turnScheduled = false;
  let retry: NodeJS.Timeout | undefined;
  const drained = new Set<() => void>();

  const scheduleRetry = (): void => {
    if (retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      if (queue.flush()) settle();
      else scheduleRetry();
    }, retryMs);
    // Waiting for a slow reader must not keep a process alive that has nothing else to do.
    retry.unref();
  };

  /** The queue is written out: report the lines lost on the way, then wake whoever waits to drain. */
  const settle = (): void => {
    if (queue.enqueueDropNotice() && !queue.flush()) return scheduleRetry();
    for (const resolve of drained) resolve();
    drained.clear();
  };

  /** Moves this turn's lines to the queue and writes what the reader takes. */
  const endTurn = (): void => {
    turnScheduled = false;
    if (turn.length === 0) return;
    const lines = turn;
    turn = [];
    const waiting = !queue.empty;
    queue.enqueueLines(lines);
    // Behind a queue the lines wait their turn (order kept); the retry timer writes them.
    if (waiting) return;
    if (queue.flush()) settle();
    else scheduleRetry();
  };

  return {
    write(text) {
      turn.push(text);
      if (turnScheduled) return;
      turnScheduled = true;
      setImmediate(endTurn);
    },
    drain(timeoutMs) {
      endTurn();
      return queue.empty ? Promise.resolve() : untilDrained(drained, timeoutMs);
    },
    get dropped() {
      return queue.dropped;
    },
  };
}

/** Resolves when `drained` is called back, or after `timeoutMs`. */
function untilDrained(drained: Set<() => void>, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      drained.delete(done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    drained.add(done);
  });
}

/** A descriptor for `fd` whose writes never block, where the system allows one (see above). */
function nonBlockingHandle(fd: number): number {
  let stat;
  try {
    stat = fstatSync(fd);
  } catch {
    return fd;
  }
  if (stat.isFile() || stat.isSocket()) return fd;
  try {
    // O_APPEND never matters for a pipe or terminal; O_NOCTTY keeps a terminal from becoming ours.
    const reopened = openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    if (!fstatSync(reopened).isFIFO() && !fstatSync(reopened).isCharacterDevice()) {
      closeSync(reopened);
      return fd;
    }
    return reopened;
  } catch {
    // No /proc, or a pipe whose reader is already gone (ENXIO): keep the descriptor, whose writes
    // fail at once with EPIPE in the second case.
    return fd;
  }
}
