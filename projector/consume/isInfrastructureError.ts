import kafkajs from 'kafkajs';
import { MongoError } from 'mongodb';

// Node's ESM loader does not see KafkaJSError among kafkajs's CommonJS named exports (vitest's
// loader does), so it is read off the module object.
const { KafkaJSError } = kafkajs;

/**
 * Whether an error came from the database or the broker (their clients throw only their own
 * classes), as opposed to from folding an event: the first is retried, since the same event will
 * apply once the server is back; the second would fail the same way on every retry, so the event
 * is dead-lettered instead (decisions.md, "Hostile input"). Told apart by where the error comes
 * from, never by its message.
 */
export const isInfrastructureError = (error: unknown): boolean => error instanceof MongoError || error instanceof KafkaJSError;
