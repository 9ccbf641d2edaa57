import { parseArgs } from 'node:util';
import type { HistoryOptions } from './createHistory.ts';

// The generator command line's arguments (generator/cli.ts): parsed, then checked, each mistake
// a UsageError that names the option.

export class UsageError extends Error {}

export function parseCli(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    options: {
      seed: { type: 'string' },
      events: { type: 'string' },
      now: { type: 'string' },
      years: { type: 'string' },
      ndjson: { type: 'string' },
      kafka: { type: 'boolean' },
      count: { type: 'boolean' },
      brokers: { type: 'string', default: '127.0.0.1:9092' },
      topic: { type: 'string', default: 'federation.events.v1' },
      partitions: { type: 'string' },
      'batch-size': { type: 'string' },
      'if-empty': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }).values;
}

export type CliValues = ReturnType<typeof parseCli>;

/** The history the arguments ask for. */
export function historyOptions(values: CliValues): HistoryOptions {
  return {
    // The generator keeps 32 bits of the seed: larger ones would silently repeat smaller ones.
    seed: integer('seed', values.seed, 0, undefined, 2 ** 32 - 1),
    events: integer('events', values.events, 1),
    now: historyEnd(values.now),
    years: integer('years', values.years, 1, 6),
  };
}

export function integer(name: string, value: string | undefined, min: number, fallback?: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`--${name} is required`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return n;
}

/** The history's end: given, or the start of today (UTC) so a day's runs are reproducible. */
function historyEnd(value: string | undefined): Date {
  if (value === undefined) {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  }
  const date = new Date(value);
  if (!/(?:Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(`--now must be an RFC 3339 date-time with an offset, e.g. 2026-11-23T00:00:00Z (got "${value}")`);
  }
  return date;
}
