import { ConfigError } from './config/index.ts';

/**
 * Entry-point wrapper: a configuration error prints its message (naming each bad variable) and
 * exits 1; any other start-up failure is printed with its cause. Nothing half-started lingers.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${name}: start-up failed: ${message}\n`);
    process.exit(1);
  });
}
