import { readFileSync } from 'node:fs';

/** The SASL mechanisms the Kafka client offers that managed clusters use, as kafkajs names them. */
export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** How the Kafka clients reach the brokers: TLS or not, and who they authenticate as. */
export interface KafkaSecurity {
  /** False: plaintext. Otherwise the PEM texts read at start-up (no CA: the system's trusted roots). */
  tls: false | { ca?: string; cert?: string; key?: string; rejectUnauthorized: boolean };
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

/** Reads a file named by a variable; loadConfig's callers may pass their own (tests). */
export type ReadFile = (path: string) => string;
export const readTextFile: ReadFile = (path) => readFileSync(path, 'utf8');

type Values = Record<string, unknown>;

const PEM = {
  certificate: { label: 'certificate', pattern: /-----BEGIN CERTIFICATE-----/ },
  key: { label: 'private key', pattern: /-----BEGIN (RSA |EC )?PRIVATE KEY-----/ },
};

/**
 * The Kafka connection's security from values that passed their schemas, and what is wrong with
 * their combination: each problem names its variable. The PEM files are read here, once, so a
 * missing or unreadable file stops the start instead of the first connection.
 */
export function readKafkaSecurity(values: Values, readFile: ReadFile): { security: KafkaSecurity; problems: string[] } {
  const problems: string[] = [];
  const text = (name: string): string => (values[name] as string | undefined) ?? '';
  const ssl = text('KAFKA_SSL') === 'true';
  const files = { KAFKA_SSL_CA_FILE: PEM.certificate, KAFKA_SSL_CERT_FILE: PEM.certificate, KAFKA_SSL_KEY_FILE: PEM.key };
  const pem: Partial<Record<keyof typeof files, string>> = {};
  for (const [name, kind] of Object.entries(files) as [keyof typeof files, (typeof files)[keyof typeof files]][]) {
    const path = text(name);
    if (path === '') continue;
    if (!ssl) {
      problems.push(`${name}: needs KAFKA_SSL=true, got "${path}"`);
      continue;
    }
    const read = readPem(path, kind, readFile);
    if (typeof read === 'string') pem[name] = read;
    else problems.push(`${name}: ${read.problem}`);
  }
  const rejectUnauthorized = text('KAFKA_SSL_REJECT_UNAUTHORIZED') !== 'false';
  if (!ssl && !rejectUnauthorized) problems.push('KAFKA_SSL_REJECT_UNAUTHORIZED: needs KAFKA_SSL=true, got "false"');
  // A client certificate without its key (or the reverse) cannot be presented.
  if (text('KAFKA_SSL_CERT_FILE') !== '' && text('KAFKA_SSL_KEY_FILE') === '') {
    problems.push('KAFKA_SSL_KEY_FILE: required with KAFKA_SSL_CERT_FILE (the key of the client certificate)');
  }
  if (text('KAFKA_SSL_KEY_FILE') !== '' && text('KAFKA_SSL_CERT_FILE') === '') {
    problems.push('KAFKA_SSL_CERT_FILE: required with KAFKA_SSL_KEY_FILE (the client certificate of the key)');
  }
  const { sasl, problems: saslProblems } = readSasl(text);
  problems.push(...saslProblems);
  const tls = ssl
    ? {
        rejectUnauthorized,
        ...(pem.KAFKA_SSL_CA_FILE === undefined ? {} : { ca: pem.KAFKA_SSL_CA_FILE }),
        ...(pem.KAFKA_SSL_CERT_FILE === undefined ? {} : { cert: pem.KAFKA_SSL_CERT_FILE }),
        ...(pem.KAFKA_SSL_KEY_FILE === undefined ? {} : { key: pem.KAFKA_SSL_KEY_FILE }),
      }
    : false;
  return { security: { tls, ...(sasl ? { sasl } : {}) }, problems };
}

function readPem(path: string, kind: { label: string; pattern: RegExp }, readFile: ReadFile): string | { problem: string } {
  let content: string;
  try {
    content = readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problem: `cannot read "${path}" (${code})` };
  }
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(content)) {
    return { problem: `"${path}" holds an encrypted key; give the key unencrypted (PEM)` };
  }
  if (!kind.pattern.test(content)) return { problem: `"${path}" holds no PEM ${kind.label} (${kind.pattern.source})` };
  return content;
}

/** SASL needs all three of mechanism, user name and password, or none of them. */
function readSasl(text: (name: string) => string): { sasl?: KafkaSecurity['sasl']; problems: string[] } {
  const mechanism = text('KAFKA_SASL_MECHANISM').toLowerCase() as KafkaSaslMechanism | '';
  const username = text('KAFKA_SASL_USERNAME');
  const password = text('KAFKA_SASL_PASSWORD');
  if (mechanism === '') {
    const given = ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'].filter((name) => text(name) !== '');
    return given.length === 0
      ? { problems: [] }
      : { problems: [`KAFKA_SASL_MECHANISM: required with ${given.join(' and ')} (one of ${KAFKA_SASL_MECHANISMS.join(', ')})`] };
  }
  const problems: string[] = [];
  const shown = mechanism.toUpperCase();
  if (username === '') problems.push(`KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM=${shown}`);
  if (password === '') problems.push(`KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=${shown}`);
  return problems.length > 0 ? { problems } : { sasl: { mechanism, username, password }, problems };
}
