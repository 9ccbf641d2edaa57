import { pino, type Logger } from 'pino';

export type { Logger };

/** One JSON logger per process; `name` tells projector and API lines apart in shared sinks. */
export function createLogger(name: string, level: string): Logger {
  return pino({ name, level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}
