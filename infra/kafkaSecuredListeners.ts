/**
 * Listeners a private test broker may add beside its PLAINTEXT one (which stays, for the probes
 * and the broker's own traffic), so the clients' TLS and SASL can be tried against a real broker.
 * The shared broker of `npm start` and the tests never has them.
 */
export interface KafkaSecuredListeners {
  /** Users of every SASL listener: PLAIN reads them from its JAAS line, SCRAM from the metadata written at format time. */
  users: readonly { name: string; password: string }[];
  /** SASL without TLS (`SASL_PLAINTEXT`) on this port. */
  saslPlaintextPort?: number;
  /** SASL over TLS (`SASL_SSL`) on this port; needs `tls`. */
  saslSslPort?: number;
  /** TLS with a client certificate required (`SSL`, mutual TLS) on this port; needs `tls`. */
  sslPort?: number;
  /** PEM files: the broker's key and certificate chain in one file, and the CA that signs client certificates. */
  tls?: { keyAndCertificateFile: string; clientCaFile: string };
}

const SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;

// The format tool's `[name=…,password=…]` and the JAAS line have no quoting a test needs: plain words only.
const PLAIN_WORD = /^[A-Za-z0-9_.-]+$/;

/** The listeners, each named after its security protocol. */
export function securedListenerList(secured: KafkaSecuredListeners | undefined): { name: string; port: number }[] {
  if (!secured) return [];
  const ports: [string, number | undefined][] = [
    ['SASL_PLAINTEXT', secured.saslPlaintextPort],
    ['SASL_SSL', secured.saslSslPort],
    ['SSL', secured.sslPort],
  ];
  return ports.flatMap(([name, port]) => (port === undefined ? [] : [{ name, port }]));
}

/** server.properties lines of the secured listeners (empty without them). */
export function securedListenerProperties(secured: KafkaSecuredListeners | undefined): string {
  if (!secured) return '';
  for (const { name, password } of secured.users) {
    if (!PLAIN_WORD.test(name) || !PLAIN_WORD.test(password))
      throw new Error(`test user ${name}: name and password must match ${PLAIN_WORD.source}`);
  }
  const lines: string[] = ['# Secured listeners of a private test broker (infra/kafkaSecuredListeners.ts).'];
  const sasl = [
    secured.saslPlaintextPort === undefined ? [] : ['sasl_plaintext'],
    secured.saslSslPort === undefined ? [] : ['sasl_ssl'],
  ].flat();
  if ((secured.saslSslPort !== undefined || secured.sslPort !== undefined) && !secured.tls) {
    throw new Error('a SASL_SSL or SSL listener needs the tls files');
  }
  for (const listener of sasl) {
    lines.push(`listener.name.${listener}.sasl.enabled.mechanisms=${SASL_MECHANISMS.join(',')}`);
    const plainUsers = secured.users.map((u) => `user_${u.name}="${u.password}"`).join(' ');
    lines.push(
      `listener.name.${listener}.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required ${plainUsers};`,
    );
    for (const scram of ['scram-sha-256', 'scram-sha-512']) {
      lines.push(`listener.name.${listener}.${scram}.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`);
    }
  }
  if (secured.tls) {
    // PEM files read by the broker itself (KIP-651): no keytool, no keystore password.
    lines.push(
      'ssl.keystore.type=PEM',
      `ssl.keystore.location=${secured.tls.keyAndCertificateFile}`,
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${secured.tls.clientCaFile}`,
    );
    if (secured.sslPort !== undefined) lines.push('listener.name.ssl.ssl.client.auth=required');
    if (secured.saslSslPort !== undefined) lines.push('listener.name.sasl_ssl.ssl.client.auth=none');
  }
  return `${lines.join('\n')}\n`;
}

/** StorageTool format arguments that write the SCRAM credentials into the new cluster's metadata. */
export function scramFormatArgs(secured: KafkaSecuredListeners | undefined): string[] {
  if (!secured || (secured.saslPlaintextPort === undefined && secured.saslSslPort === undefined)) return [];
  return secured.users.flatMap((u) =>
    ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((mechanism) => ['--add-scram', `${mechanism}=[name=${u.name},password=${u.password}]`]),
  );
}
