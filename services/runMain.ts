import { ConfigError } from './config/index.ts';
import { shuttingDown } from './shutdown.ts';

/** A start the process declines on purpose; its message says why and what to do, so no stack is printed. */
export class StartRefused extends Error {
  override name = 'StartRefused';
}

/**
 * Entry-point wrapper: a configuration error prints its message (naming each bad variable) and
 * exits 1; any other start-up failure is printed with its cause. Nothing half-started lingers.
 * A step that fails because a stop signal closed its connection is left to the shutdown, which
 * is already exiting.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (shuttingDown()) return;
    const message =
      error instanceof ConfigError || error instanceof StartRefused
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`${name}: start-up failed: ${message}\n`);
    process.exit(1);
  });
}
