import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '../logger.ts';

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

export function createKafka(opts: { clientId: string; brokers: readonly string[]; logger: Logger }): Kafka {
  dropKafkajsTimeoutWarning();
  const kafkaLog = opts.logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId: opts.clientId,
    brokers: [...opts.brokers],
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...rest } = log;
        kafkaLog[levels[level] ?? 'info'](rest, message);
      },
  });
}
