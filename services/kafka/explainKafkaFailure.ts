import type { KafkaSecurity } from '../config/index.ts';
import { StartRefused } from '../runMain.ts';

/**
 * A client that could not connect, said in the operator's words: which brokers, over what, as
 * whom, and which variables to look at. A start-up refusal, so the process prints it without a
 * stack and exits; the kafkajs error stays its `cause`.
 */
export class KafkaConnectFailed extends StartRefused {
  override name = 'KafkaConnectFailed';
}

// Node's codes for a broker certificate the client does not trust.
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const CONNECTION_ERRORS = new Set(['KafkaJSNumberOfRetriesExceeded', 'KafkaJSConnectionError', 'KafkaJSConnectionClosedError']);

interface Link {
  name?: string;
  /** kafkajs's name of the broker's error code. */
  type?: string;
  message?: string;
  code?: string;
  cause?: unknown;
  originalError?: unknown;
}

/** The error and every error it wraps (kafkajs wraps through `cause` and `originalError`). */
function chain(error: unknown): Link[] {
  const links: Link[] = [];
  for (let at: unknown = error; at !== null && typeof at === 'object' && links.length < 10;) {
    const link = at as Link;
    links.push(link);
    at = link.cause ?? link.originalError;
  }
  return links;
}

/**
 * What a failed connect means, or the error itself when it is none of the cases below. A refused
 * SASL login is not retried by kafkajs, so it arrives here at once; a connection that never
 * succeeds arrives after kafkajs's bounded retries.
 */
export function explainKafkaFailure(error: unknown, where: { brokers: readonly string[]; security: KafkaSecurity }): unknown {
  const links = chain(error);
  const at = where.brokers.join(',');
  const { sasl, tls } = where.security;
  const deepest = links.at(-1)?.message ?? String(error);
  const refusedLogin = links.find((l) => l.name === 'KafkaJSSASLAuthenticationError');
  if (refusedLogin) {
    const who = sasl ? `(SASL ${sasl.mechanism.toUpperCase()}) for user "${sasl.username}"` : '(SASL)';
    return new KafkaConnectFailed(
      `Kafka authentication failed ${who} at ${at}: ${refusedLogin.message ?? deepest}; check KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD`,
      { cause: error },
    );
  }
  const certificate = links.find((l) => l.code !== undefined && CERTIFICATE_CODES.has(l.code));
  if (certificate) {
    return new KafkaConnectFailed(
      `Kafka at ${at}: the broker's TLS certificate is not trusted (${certificate.code}: ${certificate.message}); set KAFKA_SSL_CA_FILE to the CA that signed it`,
      { cause: error },
    );
  }
  // ILLEGAL_SASL_STATE: SASL offered to a listener that has none.
  if (links.some((l) => (l.name !== undefined && CONNECTION_ERRORS.has(l.name)) || l.type === 'ILLEGAL_SASL_STATE')) {
    const over = `${tls ? 'TLS' : 'plaintext'}, ${sasl ? `SASL ${sasl.mechanism.toUpperCase()}` : 'no SASL'}`;
    return new KafkaConnectFailed(
      `Kafka at ${at} did not answer (${over}): ${deepest}; check KAFKA_BROKERS, and that KAFKA_SSL and KAFKA_SASL_MECHANISM match the brokers' listener`,
      { cause: error },
    );
  }
  return error;
}
