import { drainLog, type Logger } from './logger.ts';

export interface Shutdown {
  /**
   * Closes `close` on shutdown, before everything added earlier (the last resource opened is
   * the first closed). Returns a function that takes it back (a resource handed on or released).
   */
  add(name: string, close: () => Promise<unknown>): () => void;
}

/** How long a stopping process may take to drain before it exits anyway; a supervisor's stop grace must exceed it. */
export const SHUTDOWN_GRACE_MS = 20_000;

let signalled = false;

/** Whether a stop signal arrived: a start-up step failing after it (its connection closed under it) is not a start-up failure. */
export function shuttingDown(): boolean {
  return signalled;
}

/**
 * Arms SIGTERM and SIGINT as soon as a process has its logger, so a signal during start-up
 * (connecting, joining the group, a first projection) stops it cleanly instead of killing it
 * by default: the closers added so far run once, newest first, then the process exits. A
 * closer that hangs cannot keep the process alive past the grace period (orchestrators would
 * SIGKILL it anyway), and a second signal ends the process at once (the handlers are `once`).
 * Neither exit can be held up by the log's reader: log writes never block (logDestination.ts)
 * and the last lines get at most one second to leave.
 */
export function shutdownOnSignal(logger: Logger, graceMs = SHUTDOWN_GRACE_MS): Shutdown {
  const closers: { name: string; close: () => Promise<unknown> }[] = [];
  const shutdown = (signal: string): void => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long; exiting');
      void drainLog(500).then(() => process.exit(1));
    }, graceMs);
    force.unref();
    void (async () => {
      let failed = false;
      for (const closer of closers.toReversed()) {
        try {
          await closer.close();
        } catch (error) {
          failed = true;
          logger.error({ err: error, closer: closer.name }, 'error while closing');
        }
      }
      logger.info('stopped');
      await drainLog(1_000);
      process.exit(failed ? 1 : 0);
    })();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return {
    add(name, close) {
      const closer = { name, close };
      closers.push(closer);
      return () => {
        const at = closers.indexOf(closer);
        if (at >= 0) closers.splice(at, 1);
      };
    },
  };
}
