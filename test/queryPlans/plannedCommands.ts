import type { Document } from 'mongodb';
import type { PlannedCommand } from './commandShape.ts';

// The statements of one command as the driver sends it (a `commandStarted` event), each as the
// command `explain` takes: the fields the planner reads, without the session, write concern or
// time limit, which `explain` refuses or ignores.

const pick = (command: Document, fields: readonly string[]): Document => {
  const picked: Document = {};
  for (const field of fields) {
    const value: unknown = command[field];
    // The driver sends a sort as a Map (to keep its key order); a plain object keeps it as well.
    if (value !== undefined) picked[field] = value instanceof Map ? Object.fromEntries(value) : value;
  }
  return picked;
};

const FIND_FIELDS = ['filter', 'sort', 'projection', 'hint', 'skip', 'limit', 'collation'];
const AGGREGATE_FIELDS = ['pipeline', 'hint', 'collation'];
const COUNT_FIELDS = ['query', 'hint', 'skip', 'limit', 'collation'];
const DISTINCT_FIELDS = ['key', 'query', 'hint', 'collation'];
const FIND_AND_MODIFY_FIELDS = ['query', 'sort', 'update', 'remove', 'upsert', 'new', 'fields', 'hint'];
const UPDATE_STATEMENT_FIELDS = ['q', 'u', 'upsert', 'multi', 'hint', 'collation', 'arrayFilters'];
const DELETE_STATEMENT_FIELDS = ['q', 'limit', 'hint', 'collation'];

/** The planned statements of a command; none for commands that plan no query (insert, getMore, hello...). */
export function plannedCommands(commandName: string, command: Document): PlannedCommand[] {
  const collection = String(command[commandName]);
  switch (commandName) {
    case 'find':
      return [{ name: 'find', collection, explain: { find: collection, ...pick(command, FIND_FIELDS) } }];
    case 'aggregate':
      return [{ name: 'aggregate', collection, explain: { aggregate: collection, ...pick(command, AGGREGATE_FIELDS), cursor: {} } }];
    case 'count':
      return [{ name: 'count', collection, explain: { count: collection, ...pick(command, COUNT_FIELDS) } }];
    case 'distinct':
      return [{ name: 'distinct', collection, explain: { distinct: collection, ...pick(command, DISTINCT_FIELDS) } }];
    case 'findAndModify':
      return [{ name: 'findAndModify', collection, explain: { findAndModify: collection, ...pick(command, FIND_AND_MODIFY_FIELDS) } }];
    case 'update':
      return ((command.updates as Document[] | undefined) ?? []).map((statement) => ({
        name: 'update',
        collection,
        explain: { update: collection, updates: [pick(statement, UPDATE_STATEMENT_FIELDS)] },
      }));
    case 'delete':
      return ((command.deletes as Document[] | undefined) ?? []).map((statement) => ({
        name: 'delete',
        collection,
        explain: { delete: collection, deletes: [pick(statement, DELETE_STATEMENT_FIELDS)] },
      }));
    default:
      return [];
  }
}
