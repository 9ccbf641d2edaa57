import { EVENT_TYPES, eventSchemas } from './eventTypes.ts';

export const EVENT_SCHEMA_FILE_SUFFIX = '.schema.json';

/**
 * The JSON files published for the write side, by file name: one per event type, the whole
 * envelope with that type's `data`. TypeBox's symbol keys vanish in JSON.stringify.
 */
export const eventSchemaFiles = (): Map<string, string> =>
  new Map(EVENT_TYPES.map((type) => [`${type}${EVENT_SCHEMA_FILE_SUFFIX}`, `${JSON.stringify(eventSchemas[type], null, 2)}\n`]));
