import { BSON, type CommandStartedEvent, type MongoClient } from 'mongodb';
import { commandShape, type PlannedCommand } from './commandShape.ts';
import { plannedCommands } from './plannedCommands.ts';

/** One shape seen on the wire: the first statement sent in it, who sent it, how often. */
export interface CapturedShape {
  readonly shape: string;
  readonly command: PlannedCommand;
  readonly sources: Set<string>;
  count: number;
}

/**
 * Records, per shape, the statements the clients it listens to send to one database (clients
 * made with `monitorCommands: true`). `source` names who is sending now (`api`, `projector`,
 * `clock`); a client listened to with its own source keeps it.
 */
export class CommandCapture {
  readonly shapes = new Map<string, CapturedShape>();
  source = 'unnamed';
  readonly #database: string;

  constructor(database: string) {
    this.#database = database;
  }

  listen(client: MongoClient, source?: string): void {
    client.on('commandStarted', (event: CommandStartedEvent) => {
      if (event.databaseName === this.#database) this.#record(event, source ?? this.source);
    });
  }

  #record(event: CommandStartedEvent, source: string): void {
    for (const command of plannedCommands(event.commandName, event.command)) {
      const shape = commandShape(command);
      const seen = this.shapes.get(shape);
      if (seen) {
        seen.count++;
        seen.sources.add(source);
        continue;
      }
      // A copy: the driver may reuse what it sent, and the explain runs after the whole workload.
      const explain = BSON.deserialize(BSON.serialize(command.explain, { ignoreUndefined: true }));
      this.shapes.set(shape, { shape, command: { ...command, explain }, sources: new Set([source]), count: 1 });
    }
  }
}
