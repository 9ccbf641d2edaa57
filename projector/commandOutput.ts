import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, stderrLog, type Logger } from '../services/logger.ts';
import type { LogDestination } from '../services/logDestination.ts';

// What the operators' commands (status, dead-letters, rebuild) print besides their own lines: a
// person at a terminal reads warnings and errors as sentences on stderr; a script that asks for
// `--json` gets the JSON log lines on stdout, as the services write them.

/** pino's numeric levels, by name, for the readable lines. */
const LEVEL_NAMES: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/**
 * One JSON log line as a sentence: `rebuild: warning: <message> at <partition>:<offset>: <reason
 * or error>`, the position and reason when the line has them, the other fields left out.
 */
export function readableLogLine(command: string, jsonLine: string): string {
  let entry: {
    level?: number;
    msg?: string;
    err?: { message?: string };
    partition?: number | string;
    offset?: number | string;
    reason?: unknown;
  };
  try {
    entry = JSON.parse(jsonLine) as typeof entry;
  } catch {
    return `${command}: ${jsonLine.trim()}`;
  }
  const level = LEVEL_NAMES[entry.level ?? 0] ?? 'note';
  const at = entry.partition !== undefined && entry.offset !== undefined ? ` at ${entry.partition}:${entry.offset}` : '';
  const why = typeof entry.reason === 'string' ? entry.reason : entry.err?.message;
  const cause = why ? `: ${why.split('\n')[0]!.slice(0, 300)}` : '';
  return `${command}: ${level}: ${entry.msg ?? '(no message)'}${at}${cause}`;
}

/** A destination that writes each log line readably to stderr. */
function readableDestination(command: string, to: LogDestination = stderrLog()): LogDestination {
  return {
    write: (text) => {
      for (const line of text.split('\n').filter((l) => l.trim() !== '')) to.write(`${readableLogLine(command, line)}\n`);
    },
    drain: (timeoutMs) => to.drain(timeoutMs),
    get dropped() {
      return to.dropped;
    },
  };
}

/**
 * The logger of an operator's command: with `json`, JSON lines on stdout at `level`, as the
 * services log; otherwise warnings and errors only, as sentences on stderr.
 */
export function commandLogger(command: string, opts: { json: boolean; level: string }): Logger {
  return opts.json ? createLogger(command, opts.level) : createLogger(command, 'warn', readableDestination(command));
}

export interface Invocation {
  /** The command alone: `npm run dead-letters`, or `node dist/projector/deadLetters.js`. */
  run: string;
  /** The command with arguments: `npm run dead-letters -- republish --all`. */
  withArgs(args: string): string;
}

/**
 * How to run an operator's command again, as this process was started: `npm run <script>` from
 * a checkout, `node dist/projector/<entry>.js` in the image, which has no npm scripts and no
 * sources. `entry` is the running script's path (process.argv[1]).
 */
export function commandInvocation(npmScript: string, entry: string | undefined): Invocation {
  if (!entry?.endsWith('.js')) return { run: `npm run ${npmScript}`, withArgs: (args) => `npm run ${npmScript} -- ${args}` };
  const run = `node dist/projector/${basename(entry)}`;
  return { run, withArgs: (args) => `${run} ${args}` };
}

/**
 * The flags of a command that takes only `--json` (and `--help`): prints `usage` and exits 0 on
 * `--help`, exits 2 with it on anything else it does not know, before anything is read.
 */
export function parseJsonFlag(command: string, usage: string, args: readonly string[]): boolean {
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return values.json === true;
  } catch (error) {
    process.stderr.write(`${command}: ${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
}
