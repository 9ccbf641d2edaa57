import { BSON, MongoBulkWriteError, MongoInvalidArgumentError, MongoServerError, type WriteError } from 'mongodb';
import { DocumentOverBudget } from '../../services/readModel/documentBudgets.ts';

/**
 * Server error codes that refuse a write for what the document holds (MongoDB's
 * src/mongo/base/error_codes.yml and the codes its storage layer raises): the same document
 * is refused again on every retry, whatever the server's state.
 */
export const CONTENT_ERROR_CODES: ReadonlyMap<number, string> = new Map([
  [10334, 'BSONObjectTooLarge'],
  // "Resulting document after update is larger than 16777216", and its upsert twin.
  [17419, 'DocumentAfterUpdateTooLarge'],
  [17420, 'DocumentToUpsertTooLarge'],
  [15, 'Overflow'],
  [22, 'InvalidBSON'],
  [52, 'DollarPrefixedFieldName'],
  [55, 'InvalidDBRef'],
  [56, 'EmptyFieldName'],
  [57, 'DottedFieldName'],
  [17280, 'KeyTooLong'],
]);

/**
 * BadValue is a content error only as one document's write error: as a command's error it says
 * the command itself (ours, the same for every event) is wrong.
 */
const BAD_VALUE = 2;

/** The driver's own refusal of a document past the server's maxBsonObjectSize; it carries no code. */
const DRIVER_TOO_LARGE = 'Document is larger than the maximum size';

/**
 * Whether a write failed on the content of what was written, so that writing it again can never
 * succeed: our own budget refusal (DocumentOverBudget), the BSON serializer's refusal, the
 * driver's refusal of a document past the server's limit, or a server error of
 * CONTENT_ERROR_CODES (for the command or any one document of a bulk). Such an error is treated
 * like a fold error (decisions.md, "Hostile input"): the event that produced the document is
 * dead-lettered; everything else the database says is about its availability and is retried.
 */
export function isContentError(error: unknown): boolean {
  if (error instanceof DocumentOverBudget || BSON.BSONError.isBSONError(error)) return true;
  if (error instanceof MongoInvalidArgumentError) return error.message.startsWith(DRIVER_TOO_LARGE);
  if (!(error instanceof MongoServerError)) return false;
  if (typeof error.code === 'number' && CONTENT_ERROR_CODES.has(error.code)) return true;
  if (!(error instanceof MongoBulkWriteError)) return false;
  const writeErrors: readonly WriteError[] = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors as WriteError];
  return writeErrors.some(({ code }) => code === BAD_VALUE || CONTENT_ERROR_CODES.has(code));
}
