import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../infra/processes.ts';

export interface TestCertificates {
  /** The test CA's certificate: what KAFKA_SSL_CA_FILE names. */
  caFile: string;
  /** The broker's key and certificate (for 127.0.0.1 and localhost) in one PEM file. */
  brokerKeyAndCertificateFile: string;
  /** A client certificate and its unencrypted key signed by the same CA (mutual TLS). */
  clientCertFile: string;
  clientKeyFile: string;
}

/**
 * A throw-away CA with a broker and a client certificate, made by openssl in `dir` (node:crypto
 * makes keys but no X.509 certificates). Valid for two days: long enough for any run.
 */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  mkdirSync(dir, { recursive: true });
  const at = (name: string): string => join(dir, name);
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...key,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=federation-read test CA',
  ]);
  const issue = async (name: string, subject: string, extensions: string): Promise<void> => {
    await run('openssl', ['req', ...key, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`), '-subj', subject]);
    writeFileSync(at(`${name}.ext`), extensions);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
      '-out',
      at(`${name}.pem`),
    ]);
  };
  await issue('broker', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  await issue('client', '/CN=projector', 'extendedKeyUsage=clientAuth\n');
  writeFileSync(at('broker-key-and-cert.pem'), readFileSync(at('broker.key'), 'utf8') + readFileSync(at('broker.pem'), 'utf8'));
  return {
    caFile: at('ca.pem'),
    brokerKeyAndCertificateFile: at('broker-key-and-cert.pem'),
    clientCertFile: at('client.pem'),
    clientKeyFile: at('client.key'),
  };
}
