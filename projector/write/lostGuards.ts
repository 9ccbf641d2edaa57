import { MongoBulkWriteError, type WriteError } from 'mongodb';

const DUPLICATE_KEY = 11000;

/**
 * The ops of an unordered bulk write that the server refused only because their guard lost (a
 * guarded upsert or an insert that met an existing document: duplicate key), or null when the
 * error says anything else, and so that the bulk was not wholly acknowledged.
 *
 * A connection closed mid-bulk (the database killed) also surfaces as a MongoBulkWriteError,
 * with no write errors at all: taking that for "every op landed or lost its guard" committed
 * the offsets of writes the server never acknowledged (seen as dancers one membership renewal
 * behind after the database was killed under the projector). A write-concern failure reported
 * beside duplicate keys is likewise not an acknowledgement.
 */
export function lostGuards(error: unknown): Set<number> | null {
  if (!(error instanceof MongoBulkWriteError)) return null;
  const errors = ([] as WriteError[]).concat(error.writeErrors);
  if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) return null;
  if (error.result.getWriteConcernError()) return null;
  return new Set(errors.map((e) => e.index));
}
