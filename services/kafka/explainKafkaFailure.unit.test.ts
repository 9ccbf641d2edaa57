import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { explainKafkaFailure, KafkaConnectFailed } from './explainKafkaFailure.ts';

// Built as kafkajs builds them at run time; its type declarations leave out the messages and causes.
type ErrorClass = new (message: unknown, options?: object) => Error;
const KafkaJSConnectionError = kafkajs.KafkaJSConnectionError as ErrorClass;
const KafkaJSNonRetriableError = kafkajs.KafkaJSNonRetriableError as ErrorClass;
const KafkaJSNumberOfRetriesExceeded = kafkajs.KafkaJSNumberOfRetriesExceeded as ErrorClass;
const KafkaJSSASLAuthenticationError = kafkajs.KafkaJSSASLAuthenticationError as ErrorClass;
const brokers = ['kafka-1.example:9096', 'kafka-2.example:9096'];
const scram = { tls: { rejectUnauthorized: true }, sasl: { mechanism: 'scram-sha-256' as const, username: 'alice', password: 'hunter2' } };

describe('explainKafkaFailure', () => {
  it('names the mechanism, the user and the variables of a refused login, never the password', () => {
    const refused = new KafkaJSSASLAuthenticationError('SASL SCRAM SHA256 authentication failed: Authentication failed');
    for (const error of [refused, new KafkaJSNonRetriableError(refused, { cause: refused })]) {
      const explained = explainKafkaFailure(error, { brokers, security: scram });
      expect(explained).toBeInstanceOf(KafkaConnectFailed);
      const message = (explained as Error).message;
      expect(message).toMatch(
        /^Kafka authentication failed \(SASL SCRAM-SHA-256\) for user "alice" at kafka-1\.example:9096,kafka-2\.example:9096: SASL SCRAM SHA256 authentication failed/,
      );
      expect(message).toContain('KAFKA_SASL_PASSWORD');
      expect(message).not.toContain('hunter2');
      expect((explained as Error).cause).toBe(error);
    }
  });

  it('points an untrusted broker certificate at KAFKA_SSL_CA_FILE', () => {
    // As kafkajs reports it: the socket's code on its connection error, wrapped by the retrier.
    const refused = new KafkaJSConnectionError('Connection error: self-signed certificate in certificate chain', {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    const error = new KafkaJSNumberOfRetriesExceeded(refused, { cause: refused });
    expect((explainKafkaFailure(error, { brokers, security: scram }) as Error).message).toMatch(
      /the broker's TLS certificate is not trusted \(SELF_SIGNED_CERT_IN_CHAIN: .*\); set KAFKA_SSL_CA_FILE/,
    );
  });

  it('says what the client tried when no connection ever succeeded', () => {
    const closed = new KafkaJSConnectionError('Connection error: read ECONNRESET');
    const error = new KafkaJSNumberOfRetriesExceeded(closed, { cause: closed });
    expect((explainKafkaFailure(error, { brokers, security: { tls: false } }) as Error).message).toMatch(
      /^Kafka at kafka-1\.example:9096,kafka-2\.example:9096 did not answer \(plaintext, no SASL\): Connection error: read ECONNRESET; check KAFKA_BROKERS/,
    );
  });

  it('says SASL was offered to a listener without it', () => {
    const illegal = Object.assign(new Error('Request is not valid given the current SASL state'), {
      name: 'KafkaJSProtocolError',
      type: 'ILLEGAL_SASL_STATE',
    });
    expect((explainKafkaFailure(illegal, { brokers, security: scram }) as Error).message).toMatch(
      /^Kafka at .* did not answer \(TLS, SASL SCRAM-SHA-256\): Request is not valid given the current SASL state; check KAFKA_BROKERS/,
    );
  });

  it('leaves any other error as it is', () => {
    const other = new Error('something else');
    expect(explainKafkaFailure(other, { brokers, security: scram })).toBe(other);
  });
});
