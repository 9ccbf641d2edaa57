// Demo and benchmark data: a seeded federation history as contract events, to a file or to Kafka.
//   node generator/cli.ts --seed 42 --events 5000 [--now 2026-11-23T00:00:00Z] [--years 6]
//     (--ndjson FILE|- | --kafka [--brokers 127.0.0.1:9092] [--topic federation.events.v1]
//                                [--partitions 6] [--batch-size 5000]
//      | --count)   (generate and count only: the generator's own speed and memory)
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { countTopicMessages, createKafka } from '../services/kafka/index.ts';
import { createHistory, planHistory, type HistoryOptions } from './createHistory.ts';
import { publishHistory } from './publishToKafka.ts';
import { writeNdjson } from './writeNdjson.ts';

const USAGE = `usage: node generator/cli.ts --seed N --events N [--now DATE-TIME] [--years N]
         (--ndjson FILE|- | --kafka [--brokers HOST:PORT,...] [--topic NAME] [--partitions N] [--batch-size N] [--if-empty] | --count)`;

class UsageError extends Error {}

function integer(name: string, value: string | undefined, min: number, fallback?: number, max = Number.MAX_SAFE_INTEGER): number {
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

function progress(verb: string): { report: (count: number) => void; done: (count: number, where: string) => void } {
  const started = performance.now();
  let lastReport = started;
  const rate = (count: number, now: number): string =>
    `${Math.round(count / Math.max((now - started) / 1000, 1e-3)).toLocaleString('en')} events/s`;
  return {
    report(count) {
      const now = performance.now();
      if (now - lastReport < 1000) return;
      lastReport = now;
      process.stderr.write(`› ${verb} ${count.toLocaleString('en')} events (${rate(count, now)})\n`);
    },
    done(count, where) {
      const now = performance.now();
      const seconds = ((now - started) / 1000).toFixed(1);
      process.stderr.write(`› ${verb} ${count.toLocaleString('en')} events to ${where} in ${seconds}s (${rate(count, now)})\n`);
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
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
  });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const sinks = [values.ndjson !== undefined, values.kafka === true, values.count === true].filter(Boolean).length;
  if (sinks !== 1) throw new UsageError('give exactly one of --ndjson FILE, --kafka and --count');
  const options: HistoryOptions = {
    // The generator keeps 32 bits of the seed: larger ones would silently repeat smaller ones.
    seed: integer('seed', values.seed, 0, undefined, 2 ** 32 - 1),
    events: integer('events', values.events, 1),
    now: historyEnd(values.now),
    years: integer('years', values.years, 1, 6),
  };
  const plan = planHistory(options);
  process.stderr.write(
    `› history seed ${options.seed}, ~${options.events.toLocaleString('en')} events, ${options.now.toISOString()} back ${options.years} years: ` +
      `${plan.counts.persons.toLocaleString('en')} persons, ${plan.counts.competitions.toLocaleString('en')} competitions, ${plan.counts.clubs.toLocaleString('en')} clubs\n`,
  );
  const events = createHistory(options);
  if (values.count === true) {
    const meter = progress('generated');
    let count = 0;
    let peakRss = process.memoryUsage.rss();
    for (const _ of events) {
      // Sampled: reading the RSS costs a system call.
      if (++count % 100_000 === 0) {
        peakRss = Math.max(peakRss, process.memoryUsage.rss());
        meter.report(count);
      }
    }
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    meter.done(count, `nowhere (peak RSS ${Math.round(peakRss / 2 ** 20)} MiB)`);
    return;
  }
  if (values.ndjson !== undefined) {
    const target = values.ndjson;
    const meter = progress('wrote');
    const written = await writeNdjson(target === '-' ? process.stdout : target, events, { onProgress: meter.report });
    meter.done(written, target === '-' ? 'stdout' : target);
    return;
  }
  const brokers = values.brokers
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  if (values['if-empty'] === true) {
    // Demo data goes in once: a topic that already holds events is the write side's, or ours.
    const admin = createKafka({ clientId: 'history-generator', brokers, logger: pino({ level: 'warn' }, pino.destination(2)) }).admin();
    await admin.connect();
    const held = await countTopicMessages(admin, values.topic).finally(() => admin.disconnect());
    if (held > 0) {
      process.stderr.write(`› topic ${values.topic} already holds ${held.toLocaleString('en')} events; nothing published\n`);
      return;
    }
  }
  const meter = progress('published');
  const { published, createdTopic } = await publishHistory({
    brokers,
    topic: values.topic,
    events,
    partitions: integer('partitions', values.partitions, 1, 6),
    batchSize: integer('batch-size', values['batch-size'], 1, 5000),
    onProgress: meter.report,
  });
  meter.done(published, `topic ${values.topic}${createdTopic ? ' (created)' : ''}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // `| head` closing the pipe early is how a reader says it has seen enough.
  if (error instanceof Error && 'code' in error && error.code === 'EPIPE') return;
  const usage =
    error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`generator: ${error instanceof Error ? error.message : String(error)}\n${usage ? `${USAGE}\n` : ''}`);
  process.exitCode = usage ? 2 : 1;
});
