// Demo and benchmark data: a seeded federation history as contract events, to a file or to Kafka.
//   node generator/cli.ts --seed 42 --events 5000 [--now 2026-11-23T00:00:00Z] [--years 6]
//     (--ndjson FILE|- | --kafka [--brokers 127.0.0.1:9092] [--topic federation.events.v1]
//                                [--partitions 6] [--batch-size 5000]
//      | --count)   (generate and count only: the generator's own speed and memory)
import { pino } from 'pino';
import { loadConfig, type KafkaSecurity } from '../services/config/index.ts';
import type { DomainEvent } from '../services/events/index.ts';
import { countTopicMessages, createKafka } from '../services/kafka/index.ts';
import { historyOptions, integer, parseCli, UsageError, type CliValues } from './cliArguments.ts';
import { createHistory, planHistory, type HistoryOptions } from './createHistory.ts';
import { progressMeter } from './progressMeter.ts';
import { publishHistory } from './publishToKafka.ts';
import { writeNdjson } from './writeNdjson.ts';

const USAGE = `usage: node generator/cli.ts --seed N --events N [--now DATE-TIME] [--years N]
         (--ndjson FILE|- | --kafka [--brokers HOST:PORT,...] [--topic NAME] [--partitions N] [--batch-size N] [--if-empty] | --count)`;

async function main(argv: string[]): Promise<void> {
  const values = parseCli(argv);
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const sinks = [values.ndjson !== undefined, values.kafka === true, values.count === true].filter(Boolean).length;
  if (sinks !== 1) throw new UsageError('give exactly one of --ndjson FILE, --kafka and --count');
  const options = historyOptions(values);
  announcePlan(options);
  const events = createHistory(options);
  if (values.count === true) countOnly(events);
  else if (values.ndjson !== undefined) await writeToFile(values.ndjson, events);
  else await publishToTopic(values, events);
}

function announcePlan(options: HistoryOptions): void {
  const { counts } = planHistory(options);
  process.stderr.write(
    `› history seed ${options.seed}, ~${options.events.toLocaleString('en')} events, ${options.now.toISOString()} back ${options.years} years: ` +
      `${counts.persons.toLocaleString('en')} persons, ${counts.competitions.toLocaleString('en')} competitions, ${counts.clubs.toLocaleString('en')} clubs\n`,
  );
}

/** Generates and counts only: the generator's own speed and memory. */
function countOnly(events: Iterable<unknown>): void {
  const meter = progressMeter('generated');
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
}

async function writeToFile(target: string, events: Iterable<DomainEvent>): Promise<void> {
  const meter = progressMeter('wrote');
  const written = await writeNdjson(target === '-' ? process.stdout : target, events, { onProgress: meter.report });
  meter.done(written, target === '-' ? 'stdout' : target);
}

async function publishToTopic(values: CliValues, events: Iterable<DomainEvent>): Promise<void> {
  const brokers = values.brokers
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  // TLS and SASL as the service reads them (KAFKA_SSL*, KAFKA_SASL*), so it publishes to the same cluster.
  const { security } = loadConfig(process.env).kafka;
  // Demo data goes in once: a topic that already holds events is the write side's, or ours.
  if (values['if-empty'] === true) {
    const held = await countHeld(brokers, security, values.topic);
    if (held > 0) {
      process.stderr.write(`› topic ${values.topic} already holds ${held.toLocaleString('en')} events; nothing published\n`);
      return;
    }
  }
  const meter = progressMeter('published');
  const { published, createdTopic } = await publishHistory({
    brokers,
    security,
    topic: values.topic,
    events,
    partitions: integer('partitions', values.partitions, 1, 6),
    batchSize: integer('batch-size', values['batch-size'], 1, 5000),
    onProgress: meter.report,
  });
  meter.done(published, `topic ${values.topic}${createdTopic ? ' (created)' : ''}`);
}

async function countHeld(brokers: string[], security: KafkaSecurity, topic: string): Promise<number> {
  const logger = pino({ level: 'warn' }, pino.destination(2));
  const admin = createKafka({ clientId: 'history-generator', brokers, security, logger }).admin();
  await admin.connect();
  return countTopicMessages(admin, topic).finally(() => admin.disconnect());
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // `| head` closing the pipe early is how a reader says it has seen enough.
  if (error instanceof Error && 'code' in error && error.code === 'EPIPE') return;
  const usage =
    error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`generator: ${error instanceof Error ? error.message : String(error)}\n${usage ? `${USAGE}\n` : ''}`);
  process.exitCode = usage ? 2 : 1;
});
