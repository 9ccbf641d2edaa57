import { KafkaJSError } from 'kafkajs';
import { MongoError } from 'mongodb';

/**
 * Whether an error came from the database or the broker (their clients throw only their own
 * classes), as opposed to from folding an event: the first is retried, since the same event will
 * apply once the server is back; the second would fail the same way on every retry, so the event
 * is dead-lettered instead (decisions.md, "Hostile input"). Told apart by where the error comes
 * from, never by its message.
 */
export const isInfrastructureError = (error: unknown): boolean => error instanceof MongoError || error instanceof KafkaJSError;
