import kafkajs from 'kafkajs';
import { MongoError } from 'mongodb';
import { isContentError } from './isContentError.ts';

// Node's ESM loader does not see KafkaJSError among kafkajs's CommonJS named exports (vitest's
// loader does), so it is read off the module object.
const { KafkaJSError } = kafkajs;

/**
 * Whether an error says the database or the broker is not available now (their clients throw
 * only their own classes), as opposed to one about an event's content: the first is retried,
 * since the same event will apply once the server is back; the second would fail the same way on
 * every retry, so the event is dead-lettered instead (decisions.md, "Hostile input"). Content
 * errors are a fold's own errors and the database's refusals of a document for what it holds
 * (isContentError); every other error of the database's or the broker's client is taken for one
 * of availability, so that an error nobody foresaw costs a visible stall (the partition's stall
 * gauge, readiness, the alert), never a valid event.
 */
export const isInfrastructureError = (error: unknown): boolean =>
  (error instanceof MongoError || error instanceof KafkaJSError) && !isContentError(error);
