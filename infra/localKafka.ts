import { existsSync, mkdirSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { dropKafkajsTimeoutWarning } from '../services/kafka/createKafka.ts';
import { paths } from './paths.ts';
import { isOurProcess, readPidFile, run, startDetached, stopProcess, waitUntil } from './processes.ts';

// Apache Kafka 3.9.1 in KRaft mode, single node, from Maven Central (see infra/kafka/pom.xml).
const MARKER = 'kafka.Kafka';
const pidFile = join(paths.kafkaRun, 'kafka.pid');
const logFile = join(paths.kafkaRun, 'kafka.log');

export interface KafkaPorts {
  port: number;
  controllerPort: number;
}

export async function installKafka(log: (line: string) => void): Promise<void> {
  if (existsSync(paths.kafkaInstalledStamp)) return;
  log('installing Kafka 3.9.1 from Maven Central into .tools/kafka');
  rmSync(paths.kafkaLibs, { recursive: true, force: true });
  await run('mvn', [
    '-q', '-B', '-f', paths.kafkaPom,
    'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${paths.kafkaLibs}`,
  ]);
  if (!readdirSync(paths.kafkaLibs).some((f) => f.startsWith('kafka_2.13-3.9.1'))) {
    throw new Error('Maven finished but kafka_2.13-3.9.1.jar is missing from .tools/kafka/libs');
  }
  writeFileSync(paths.kafkaInstalledStamp, new Date().toISOString());
}

function serverProperties(ports: KafkaPorts): string {
  return `# Written by infra/localKafka.ts on every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${ports.controllerPort}
listeners=PLAINTEXT://127.0.0.1:${ports.port},CONTROLLER://127.0.0.1:${ports.controllerPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${ports.port}
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=${join(paths.kafkaRun, 'data')}
num.partitions=6
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
# Topics are created explicitly, as in production; a typo must fail, not invent a topic.
auto.create.topics.enable=false
# The event log is the source of truth and is kept forever (events.md, Transport).
log.retention.ms=-1
`;
}

const log4j = `log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.org.apache.kafka.raft=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.state.change.logger=WARN
`;

export async function kafkaAnswers(brokers: string[]): Promise<boolean> {
  dropKafkajsTimeoutWarning();
  const admin = new Kafka({
    clientId: 'infra-probe', brokers, logLevel: logLevel.NOTHING, connectionTimeout: 1000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export function kafkaIsOurs(): boolean {
  return isOurProcess(readPidFile(pidFile));
}

/** Starts the broker unless ours already runs; returns false when it was already running. */
export async function startKafka(ports: KafkaPorts, log: (line: string) => void): Promise<boolean> {
  const brokers = [`127.0.0.1:${ports.port}`];
  if (kafkaIsOurs()) return false;
  if (await kafkaAnswers(brokers)) {
    throw new Error(`a Kafka broker not started by this project already answers on ${brokers[0]}; set KAFKA_BROKERS to use it, or stop it`);
  }
  await installKafka(log);
  mkdirSync(join(paths.kafkaRun, 'data'), { recursive: true });
  const propsFile = join(paths.kafkaRun, 'server.properties');
  writeFileSync(propsFile, serverProperties(ports));
  writeFileSync(join(paths.kafkaRun, 'log4j.properties'), log4j);
  const classpath = `${paths.kafkaLibs}/*`;
  const java = ['-Xms256m', '-Xmx768m', `-Dlog4j.configuration=file:${join(paths.kafkaRun, 'log4j.properties')}`, '-cp', classpath];
  if (!existsSync(join(paths.kafkaRun, 'data', 'meta.properties'))) {
    const clusterId = (await run('java', [...java, 'kafka.tools.StorageTool', 'random-uuid'])).trim();
    await run('java', [...java, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', propsFile, '--ignore-formatted']);
  }
  log(`starting Kafka on ${brokers[0]} (log: ${logFile})`);
  startDetached({ command: 'java', args: [...java, MARKER, propsFile], logFile, pidFile, marker: MARKER });
  await waitUntil('Kafka', () => kafkaAnswers(brokers), { timeoutMs: 90_000, isStillRunning: kafkaIsOurs, logFile });
  return true;
}

export function stopKafka(): Promise<boolean> {
  return stopProcess(pidFile);
}

export const kafkaFiles = { pidFile, logFile };
