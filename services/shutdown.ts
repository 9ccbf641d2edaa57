import { drainLog, type Logger } from './logger.ts';

/**
 * Runs the closers in order on SIGTERM or SIGINT, once, then exits. A closer that hangs cannot
 * keep the process alive past the grace period (orchestrators would SIGKILL it anyway), and a
 * second signal ends the process at once (the handlers are `once`). Neither exit can be held up
 * by the log's reader: log writes never block (logDestination.ts) and the last lines get at most
 * one second to leave.
 */
export function onShutdown(logger: Logger, closers: { name: string; close: () => Promise<unknown> }[], graceMs = 20_000): void {
  let shuttingDown = false;
  const shutdown = (signal: string): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long; exiting');
      void drainLog(500).then(() => process.exit(1));
    }, graceMs);
    force.unref();
    void (async () => {
      let failed = false;
      for (const closer of closers) {
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
}
