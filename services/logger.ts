import { pino, type Logger } from 'pino';
import { createLogDestination, type LogDestination } from './logDestination.ts';

export type { Logger };

/**
 * One JSON logger per process; `name` tells projector and API lines apart in shared sinks. It
 * writes to stdout through a destination that never blocks the process (see logDestination.ts);
 * `drainLog` gives the last lines a bounded chance to get out before the process exits.
 */
export function createLogger(name: string, level: string, destination: LogDestination = stdoutLog()): Logger {
  return pino({ name, level, base: { service: name }, timestamp: isoTimeField }, destination);
}

let lastMs = Number.NaN;
let lastField = '';

/**
 * pino's `isoTime`, formatted once per millisecond: a busy API logs a line per request, and
 * formatting a Date each time was a visible share of a cached request's CPU.
 */
function isoTimeField(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastField;
}

let stdout: LogDestination | undefined;
let stderr: LogDestination | undefined;

/** The process's one non-blocking stdout destination. */
export function stdoutLog(): LogDestination {
  return (stdout ??= createLogDestination(1));
}

/** The process's one non-blocking stderr destination, for human lines such as progress. */
export function stderrLog(): LogDestination {
  return (stderr ??= createLogDestination(2));
}

/** Waits (at most `timeoutMs`) for queued lines on both to be written. */
export async function drainLog(timeoutMs: number): Promise<void> {
  await Promise.all([stdout?.drain(timeoutMs), stderr?.drain(timeoutMs)]);
}
