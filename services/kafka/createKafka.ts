import { Kafka, logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import type { KafkaSecurity } from '../config/index.ts';
import type { Logger } from '../logger.ts';
import { explainKafkaFailure } from './explainKafkaFailure.ts';

// kafkajs 2.2.4 schedules a timer with a negative delay on Node 24 (tulios/kafkajs#1751); Node
// clamps it to 1 ms, which is what kafkajs meant, and warns on every connection. Drop only that
// warning so real ones still reach the log.
let warningFilterInstalled = false;
export function dropKafkajsTimeoutWarning(): void {
  if (warningFilterInstalled) return;
  warningFilterInstalled = true;
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'TimeoutNegativeWarning') return;
    for (const print of printers) print(warning);
  });
}

const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

const PLAINTEXT: KafkaSecurity = { tls: false };

/** kafkajs's `ssl` and `sasl` options for the configured security. */
export function securityOptions(security: KafkaSecurity): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const { tls, sasl } = security;
  return {
    ...(tls ? { ssl: tls } : {}),
    ...(sasl ? { sasl: saslOptions(sasl) } : {}),
  };
}

function saslOptions({ mechanism, username, password }: NonNullable<KafkaSecurity['sasl']>): SASLOptions {
  // One case per mechanism: kafkajs's type pairs each mechanism with its own options.
  switch (mechanism) {
    case 'plain':
      return { mechanism, username, password };
    case 'scram-sha-256':
      return { mechanism, username, password };
    case 'scram-sha-512':
      return { mechanism, username, password };
  }
}

/**
 * The project's Kafka client. `security` comes from the configuration (`config.kafka.security`);
 * without it the client speaks plaintext with no SASL, as to the local broker. A client whose
 * connect fails says why in the operator's words (explainKafkaFailure).
 */
export function createKafka(opts: { clientId: string; brokers: readonly string[]; logger: Logger; security?: KafkaSecurity }): Kafka {
  dropKafkajsTimeoutWarning();
  const kafkaLog = opts.logger.child({ component: 'kafkajs' });
  const where = { brokers: opts.brokers, security: opts.security ?? PLAINTEXT };
  return new ExplainingKafka(where, {
    clientId: opts.clientId,
    brokers: [...opts.brokers],
    ...securityOptions(where.security),
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...rest } = log;
        kafkaLog[levels[level] ?? 'info'](rest, message);
      },
  });
}

/** A client whose admin, producers and consumers explain a failed connect (see explainKafkaFailure). */
class ExplainingKafka extends Kafka {
  private readonly where: Parameters<typeof explainKafkaFailure>[1];

  constructor(where: Parameters<typeof explainKafkaFailure>[1], config: KafkaConfig) {
    super(config);
    this.where = where;
  }

  /**
   * An admin's connect also asks for the cluster's metadata: a listener that wants SASL (or TLS)
   * accepts a bare connection and closes it only at the first real request, which should fail
   * here, explained, rather than at whatever the caller does next.
   */
  override admin(...args: Parameters<Kafka['admin']>): ReturnType<Kafka['admin']> {
    const admin = super.admin(...args);
    return this.explained(admin, () => admin.describeCluster());
  }

  override producer(...args: Parameters<Kafka['producer']>): ReturnType<Kafka['producer']> {
    return this.explained(super.producer(...args));
  }

  override consumer(...args: Parameters<Kafka['consumer']>): ReturnType<Kafka['consumer']> {
    return this.explained(super.consumer(...args));
  }

  private explained<C extends { connect(): Promise<void>; disconnect(): Promise<void> }>(client: C, check?: () => Promise<unknown>): C {
    const connect = client.connect.bind(client);
    client.connect = async () => {
      try {
        await connect();
      } catch (error) {
        throw explainKafkaFailure(error, this.where);
      }
      try {
        await check?.();
      } catch (error) {
        // Connected but unusable: nothing of it stays open behind the refusal.
        await client.disconnect().catch(() => undefined);
        throw explainKafkaFailure(error, this.where);
      }
    };
    return client;
  }
}
