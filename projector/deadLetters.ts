// Dead-letter command: `npm run dead-letters [-- list|republish ...]` (in the image: node
// dist/projector/deadLetters.js [list|republish ...]). Lists what the projector dead-lettered,
// with the reasons, and republishes chosen dead letters to the events topic once a fix makes them
// foldable. What it prints names the command as it was started, so it holds in the image too.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../services/config/index.ts';
import { createKafka } from '../services/kafka/index.ts';
import { runMain } from '../services/runMain.ts';
import { describeProgress } from './bootstrap/describeProgress.ts';
import { commandInvocation, commandLogger } from './commandOutput.ts';
import { chooseDeadLetters, isWanted } from './deadLetters/chooseDeadLetters.ts';
import { groupBySource, parseSourcePosition, sourceLabel, type SourcePosition } from './deadLetters/deadLetterEntry.ts';
import { deadLettersAsJson, describeDeadLetters } from './deadLetters/describeDeadLetters.ts';
import { readDeadLetters } from './deadLetters/readDeadLetters.ts';
import { republishDeadLetters } from './deadLetters/republishDeadLetters.ts';

const command = commandInvocation('dead-letters', process.argv[1]);

const USAGE = `usage: ${command.run}
           list the dead letters with their reasons
       ${command.withArgs('list --json')}
           the same, one JSON object per line
       ${command.withArgs('republish <partition>:<offset> ...')}
           republish those (their position in the events topic)
       ${command.withArgs('republish --all')}
           republish every dead letter of the events topic`;

/** A usage mistake: printed with the usage, exit 2, and nothing read or sent. */
function usage(problem: string): never {
  process.stderr.write(`dead-letters: ${problem}\n${USAGE}\n`);
  process.exit(2);
}

function parseCommand(): { command: 'list'; json: boolean } | { command: 'republish'; wanted: SourcePosition[] | 'all' } {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { all: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const [command = 'list', ...rest] = positionals;
  if (command === 'list') {
    if (rest.length > 0 || values.all) usage('list takes no positions');
    return { command, json: values.json === true };
  }
  if (command !== 'republish') usage(`unknown command ${command}`);
  if (values.json) usage('--json is for list');
  if (values.all && rest.length > 0) usage('give positions or --all, not both');
  if (values.all) return { command, wanted: 'all' };
  if (rest.length === 0) usage('republish needs the positions of the dead letters in the events topic, or --all');
  return {
    command,
    wanted: rest.map((text) => parseSourcePosition(text) ?? usage(`${text} is not a position <partition>:<offset>`)),
  };
}

runMain('dead-letters', async () => {
  const args = parseCommand();
  const config = loadConfig(process.env);
  const kafka = createKafka({
    clientId: `${config.kafka.clientId}-dead-letters`,
    brokers: config.kafka.brokers,
    security: config.kafka.security,
    logger: commandLogger('dead-letters', { json: false, level: 'warn' }),
  });
  const { topic, dlqTopic } = config.kafka;
  const wanted = args.command === 'republish' ? args.wanted : [];
  const entries = await readDeadLetters(kafka, dlqTopic, {
    groupId: `${config.kafka.groupId}.dead-letters.${randomUUID()}`,
    keepValue: (entry) => args.command === 'republish' && isWanted(entry, topic, wanted),
    onProgress: readingLines(dlqTopic),
  });
  const groups = groupBySource(entries);
  if (args.command === 'list') {
    const lines = args.json ? deadLettersAsJson(groups) : describeDeadLetters(groups, dlqTopic, command.withArgs('republish'));
    process.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
    return;
  }

  const choice = chooseDeadLetters(groups, topic, wanted);
  if (choice.unknown.length > 0) {
    process.stderr.write(
      `dead-letters: nothing republished: no dead letter of ${topic} came from ${choice.unknown.map(sourceLabel).join(', ')} (${command.run} lists them)\n`,
    );
    process.exitCode = 1;
    return;
  }
  for (const entry of choice.withoutValue)
    process.stdout.write(
      `not republished ${sourceLabel(entry.source)}: the event (${entry.size} bytes) was too large for the dead-letter topic, which holds its coordinates only; it stays in ${topic} at ${sourceLabel(entry.source)}, and a rebuild applies it after a fix\n`,
    );
  const sent = await republishDeadLetters(kafka, topic, dlqTopic, choice.chosen);
  for (const { entry, partition } of sent)
    process.stdout.write(`republished ${sourceLabel(entry.source)} (key ${entry.key ?? '(none)'}) to ${topic} partition ${partition}\n`);
  process.stdout.write(
    `${sent.length} republished. The projector applies each one whose aggregate version is new; one of an aggregate that has applied a later version since (a version gap) is ignored as a duplicate: rebuild the read model for those (docs/operating.md, "Rebuild").\n`,
  );
});

/**
 * While a long dead-letter topic is read, a line every few seconds on stderr: how far, how fast,
 * how long still (a short one is read before anyone would wait for it).
 */
function readingLines(dlqTopic: string, everyMs = 3_000): (read: number, total: number) => void {
  const started = performance.now();
  let last = started;
  return (read, total) => {
    const now = performance.now();
    if (now - last < everyMs) return;
    last = now;
    process.stderr.write(
      `dead-letters: reading ${dlqTopic}: ${describeProgress(read, total, now - started).replaceAll('events', 'messages')}\n`,
    );
  };
}
