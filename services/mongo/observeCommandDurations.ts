import type { CommandFailedEvent, CommandSucceededEvent } from 'mongodb';
import { Histogram, type Registry } from 'prom-client';

/** What the driver emits with `monitorCommands: true` (a MongoClient). */
export interface CommandEvents {
  on(event: 'commandSucceeded', listener: (event: CommandSucceededEvent) => void): unknown;
  on(event: 'commandFailed', listener: (event: CommandFailedEvent) => void): unknown;
}

/**
 * Database latency as the process sees it, per command (find, aggregate, insert, update,
 * createIndexes, ...), from the driver's command monitoring: the time from sending a command to
 * its reply, network and queueing on the server included, which the server's own statistics
 * leave out. Command names are a small fixed set, so the label stays bounded.
 */
export function observeCommandDurations(client: CommandEvents, registry: Registry): void {
  const duration = new Histogram({
    name: 'mongodb_command_duration_seconds',
    help: 'Time from sending a database command to its reply, by command name and outcome (driver command monitoring)',
    labelNames: ['command', 'outcome'],
    // From a cached point read to a rebuild's index build, which takes minutes on one reply.
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [registry],
  });
  client.on('commandSucceeded', (event) => duration.observe({ command: event.commandName, outcome: 'succeeded' }, event.duration / 1000));
  client.on('commandFailed', (event) => duration.observe({ command: event.commandName, outcome: 'failed' }, event.duration / 1000));
}
