import { existsSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { dropKafkajsTimeoutWarning } from '../services/kafka/createKafka.ts';
import { scramFormatArgs, securedListenerList, securedListenerProperties, type KafkaSecuredListeners } from './kafkaSecuredListeners.ts';
import { localServerInstance, type LocalServerInstance } from './localServerInstance.ts';
import { paths } from './paths.ts';
import { run } from './processes.ts';
import { withInstallLock } from './installLock.ts';

// Apache Kafka 3.9.1 in KRaft mode, single node, from Maven Central (see infra/kafka/pom.xml).
const MAIN_CLASS = 'kafka.Kafka';

export interface KafkaPorts {
  port: number;
  controllerPort: number;
}

export async function installKafka(log: (line: string) => void): Promise<void> {
  await withInstallLock(
    `${paths.kafkaLibs}.lock`,
    () => existsSync(paths.kafkaInstalledStamp),
    () => fetchKafka(log),
  );
}

async function fetchKafka(log: (line: string) => void): Promise<void> {
  log('installing Kafka 3.9.1 from Maven Central into .tools/kafka');
  rmSync(paths.kafkaLibs, { recursive: true, force: true });
  await run('mvn', [
    '-q',
    '-B',
    '-f',
    paths.kafkaPom,
    'dependency:copy-dependencies',
    '-DincludeScope=runtime',
    `-DoutputDirectory=${paths.kafkaLibs}`,
  ]);
  if (!readdirSync(paths.kafkaLibs).some((f) => f.startsWith('kafka_2.13-3.9.1'))) {
    throw new Error('Maven finished but kafka_2.13-3.9.1.jar is missing from .tools/kafka/libs');
  }
  writeFileSync(paths.kafkaInstalledStamp, new Date().toISOString());
}

function serverProperties(ports: KafkaPorts, dataDir: string, secured?: KafkaSecuredListeners): string {
  const listeners = [{ name: 'PLAINTEXT', port: ports.port }, ...securedListenerList(secured)];
  const clientListeners = listeners.map(({ name, port }) => `${name}://127.0.0.1:${port}`);
  const protocols = [...listeners.map(({ name }) => `${name}:${name}`), 'CONTROLLER:PLAINTEXT'];
  return `# Written by infra/localKafka.ts on every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${ports.controllerPort}
listeners=${[...clientListeners, `CONTROLLER://127.0.0.1:${ports.controllerPort}`].join(',')}
advertised.listeners=${clientListeners.join(',')}
controller.listener.names=CONTROLLER
listener.security.protocol.map=${protocols.join(',')}
inter.broker.listener.name=PLAINTEXT
log.dirs=${dataDir}
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
${securedListenerProperties(secured)}`;
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
    clientId: 'infra-probe',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
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

export interface KafkaInstanceOptions extends KafkaPorts {
  /** Folder of its data, configuration, log and pid file (the shared broker: .run/kafka). */
  runDir: string;
  /** JVM heap limit; 768 MB when absent. */
  heapMb?: number;
  /** SASL and TLS listeners beside the PLAINTEXT one, for tests of the clients' security. */
  secured?: KafkaSecuredListeners;
}

/** One single-node broker: its own ports and folder, so a test can stop or kill it alone. */
export interface KafkaInstance extends LocalServerInstance {
  readonly brokers: string[];
}

export function kafkaInstance(opts: KafkaInstanceOptions): KafkaInstance {
  const brokers = [`127.0.0.1:${opts.port}`];
  const server = localServerInstance({
    name: 'Kafka',
    runDir: opts.runDir,
    fileBase: 'kafka',
    address: `127.0.0.1:${opts.port}`,
    foreign: { what: 'a Kafka broker', advice: 'set KAFKA_BROKERS to use it, or stop it' },
    answers: () => kafkaAnswers(brokers),
    install: installKafka,
    // Started on its folder's data, formatting the folder the first time.
    prepare: async (dataDir) => {
      const propsFile = join(opts.runDir, 'server.properties');
      writeFileSync(propsFile, serverProperties(opts, dataDir, opts.secured));
      writeFileSync(join(opts.runDir, 'log4j.properties'), log4j);
      const classpath = `${paths.kafkaLibs}/*`;
      const heap = opts.heapMb ?? 768;
      const java = [
        `-Xms${Math.min(256, heap)}m`,
        `-Xmx${heap}m`,
        `-Dlog4j.configuration=file:${join(opts.runDir, 'log4j.properties')}`,
        '-cp',
        classpath,
      ];
      if (!existsSync(join(dataDir, 'meta.properties'))) {
        const clusterId = (await run('java', [...java, 'kafka.tools.StorageTool', 'random-uuid'])).trim();
        const format = ['format', '-t', clusterId, '-c', propsFile, '--ignore-formatted', ...scramFormatArgs(opts.secured)];
        await run('java', [...java, 'kafka.tools.StorageTool', ...format]);
      }
      // The marker is the instance's own properties file: a pid reused by another broker is never ours.
      return { command: 'java', args: [...java, MAIN_CLASS, propsFile], marker: propsFile };
    },
    startTimeoutMs: 90_000,
  });
  return { ...server, brokers };
}

// The shared local broker of `npm start` and the test runs.
const shared = (ports: KafkaPorts = { port: 9092, controllerPort: 9093 }): KafkaInstance =>
  kafkaInstance({ ...ports, runDir: paths.kafkaRun });

export function kafkaIsOurs(): boolean {
  return shared().isOurs();
}

/** Starts the broker unless ours already runs; returns false when it was already running. */
export function startKafka(ports: KafkaPorts, log: (line: string) => void): Promise<boolean> {
  return shared(ports).start(log);
}

export function stopKafka(): Promise<boolean> {
  return shared().stop();
}

export const kafkaFiles = shared().files;
