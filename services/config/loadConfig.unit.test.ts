import { readFileSync } from 'node:fs';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { configVariables } from './configVariables.ts';
import { MEMBERSHIP_DEFAULTS } from './groupMembership.ts';
import { loadConfig } from './loadConfig.ts';

describe('loadConfig', () => {
  it('gives every default when the environment is empty, frozen', () => {
    const config = loadConfig({});
    expect(config.kafka.brokers).toEqual(['127.0.0.1:9092']);
    expect(config.kafka.dlqTopic).toBe('federation.events.v1.dlq');
    expect(config.api.rateLimitMax).toBe(300);
    expect(config.calendar).toEqual({ timeZone: 'UTC', bufferPeriodDays: 30 });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.kafka.brokers)).toBe(true);
    expect(() => {
      (config.api as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('reads and converts set values', () => {
    const config = loadConfig({
      KAFKA_BROKERS: 'k1:9092,k2:9093',
      API_PORT: '9000',
      CALENDAR_TIME_ZONE: 'Europe/Riga',
      API_PUBLIC_URL: 'https://api.example.org/',
    });
    expect(config.kafka.brokers).toEqual(['k1:9092', 'k2:9093']);
    expect(config.api.port).toBe(9000);
    expect(config.calendar.timeZone).toBe('Europe/Riga');
    expect(config.api.publicUrl).toBe('https://api.example.org');
  });

  it('names every bad variable in one error', () => {
    const attempt = (): unknown =>
      loadConfig({
        API_PORT: '70000',
        RATE_LIMIT_MAX: '1e3',
        CALENDAR_TIME_ZONE: 'Mars/Olympus',
        MONGO_URL: 'http://x',
        KAFKA_BROKERS: 'nohostport',
        LOG_LEVEL: 'loud',
        API_PUBLIC_URL: 'ftp://x',
        CLOCK_SCHEDULE: 'every minute',
      });
    expect(attempt).toThrow(/API_PORT: must be <= 65535, got "70000"/);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of [
      'API_PORT',
      'RATE_LIMIT_MAX',
      'CALENDAR_TIME_ZONE',
      'MONGO_URL',
      'KAFKA_BROKERS',
      'LOG_LEVEL',
      'API_PUBLIC_URL',
      'CLOCK_SCHEDULE',
    ]) {
      expect(message).toContain(`${name}: `);
    }
  });

  it('reads REDIS_URL as optional: unset or empty means the in-memory rate limit', () => {
    expect(loadConfig({}).api.redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '' }).api.redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).api.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ REDIS_URL: 'rediss://user:secret@cache.example:6380/2' }).api.redisUrl).toBe(
      'rediss://user:secret@cache.example:6380/2',
    );
    expect(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' })).toThrow(/REDIS_URL: /);
  });

  it("reads the consumer group's membership timings, a heartbeat at most a third of the session", () => {
    expect(loadConfig({}).kafka.membership).toEqual(MEMBERSHIP_DEFAULTS);
    const set = loadConfig({
      KAFKA_SESSION_TIMEOUT_MS: '45000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '15000',
      KAFKA_REBALANCE_TIMEOUT_MS: '90000',
    });
    expect(set.kafka.membership).toEqual({ sessionTimeoutMs: 45_000, heartbeatIntervalMs: 15_000, rebalanceTimeoutMs: 90_000 });
    expect(() => loadConfig({ KAFKA_SESSION_TIMEOUT_MS: '5999' })).toThrow(/KAFKA_SESSION_TIMEOUT_MS: must be >= 6000/);
    expect(() => loadConfig({ KAFKA_SESSION_TIMEOUT_MS: '9000', KAFKA_HEARTBEAT_INTERVAL_MS: '3001' })).toThrow(
      /KAFKA_HEARTBEAT_INTERVAL_MS: must be at most a third of KAFKA_SESSION_TIMEOUT_MS \(9000\), got "3001"/,
    );
  });

  describe("Kafka's TLS and SASL", () => {
    const files: Record<string, string> = {
      '/ca.pem': '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n',
      '/client.pem': '-----BEGIN CERTIFICATE-----\nCLIENT\n-----END CERTIFICATE-----\n',
      '/client.key': '-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n',
      '/locked.key': '-----BEGIN ENCRYPTED PRIVATE KEY-----\nKEY\n-----END ENCRYPTED PRIVATE KEY-----\n',
    };
    const readFile = (path: string): string => {
      const content = files[path];
      if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return content;
    };
    const problems = (env: Record<string, string>): string => {
      try {
        loadConfig(env, readFile);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };

    it('is plaintext without SASL by default', () => {
      expect(loadConfig({}).kafka.security).toEqual({ tls: false });
    });

    it('reads TLS with the PEM files read once, and SASL with the mechanism in kafkajs spelling', () => {
      const config = loadConfig(
        {
          KAFKA_SSL: 'true',
          KAFKA_SSL_CA_FILE: '/ca.pem',
          KAFKA_SSL_CERT_FILE: '/client.pem',
          KAFKA_SSL_KEY_FILE: '/client.key',
          KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
          KAFKA_SASL_USERNAME: 'alice',
          KAFKA_SASL_PASSWORD: 's3cret with spaces',
        },
        readFile,
      );
      expect(config.kafka.security).toEqual({
        tls: { rejectUnauthorized: true, ca: files['/ca.pem'], cert: files['/client.pem'], key: files['/client.key'] },
        sasl: { mechanism: 'scram-sha-512', username: 'alice', password: 's3cret with spaces' },
      });
      expect(Object.isFrozen(config.kafka.security.tls)).toBe(true);
      expect(loadConfig({ KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' }).kafka.security).toEqual({
        tls: { rejectUnauthorized: false },
      });
      for (const mechanism of ['plain', 'PLAIN', 'scram-sha-256', 'SCRAM-SHA-256']) {
        const { sasl } = loadConfig({ KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }).kafka.security;
        expect(sasl?.mechanism).toBe(mechanism.toLowerCase());
      }
    });

    it('refuses a mechanism without its user name or password, and credentials without a mechanism, naming the variable', () => {
      expect(problems({ KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toMatch(
        /KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM=SCRAM-SHA-256\n\s+KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=SCRAM-SHA-256/,
      );
      expect(problems({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'alice' })).toMatch(/KAFKA_SASL_PASSWORD: required/);
      expect(problems({ KAFKA_SASL_USERNAME: 'alice', KAFKA_SASL_PASSWORD: 'secret' })).toMatch(
        /KAFKA_SASL_MECHANISM: required with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
      );
      expect(problems({ KAFKA_SASL_MECHANISM: 'gssapi' })).toMatch(/KAFKA_SASL_MECHANISM: must match pattern/);
      expect(problems({ KAFKA_SSL: 'yes' })).toMatch(/KAFKA_SSL: must match pattern/);
    });

    it('never shows the password in a problem', () => {
      expect(problems({ KAFKA_SASL_PASSWORD: 'hunter2' })).not.toContain('hunter2');
    });

    it('refuses TLS files without KAFKA_SSL=true, unreadable or not PEM, and half a client certificate', () => {
      expect(problems({ KAFKA_SSL_CA_FILE: '/ca.pem' })).toMatch(/KAFKA_SSL_CA_FILE: needs KAFKA_SSL=true, got "\/ca.pem"/);
      expect(problems({ KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' })).toMatch(/KAFKA_SSL_REJECT_UNAUTHORIZED: needs KAFKA_SSL=true/);
      expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/missing.pem' })).toMatch(
        /KAFKA_SSL_CA_FILE: cannot read "\/missing.pem" \(ENOENT\)/,
      );
      expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/client.key' })).toMatch(
        /KAFKA_SSL_CA_FILE: "\/client.key" holds no PEM certificate/,
      );
      expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/client.pem' })).toMatch(
        /KAFKA_SSL_KEY_FILE: required with KAFKA_SSL_CERT_FILE/,
      );
      expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_KEY_FILE: '/client.key' })).toMatch(
        /KAFKA_SSL_CERT_FILE: required with KAFKA_SSL_KEY_FILE/,
      );
      expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/client.pem', KAFKA_SSL_KEY_FILE: '/locked.key' })).toMatch(
        /KAFKA_SSL_KEY_FILE: "\/locked.key" holds an encrypted key/,
      );
    });
  });

  it("passes MONGO_URL's credentials and TLS options to the MongoDB driver as written", () => {
    // The forms docs/deploying.md shows; the driver parses them without connecting.
    const srv = loadConfig({
      MONGO_URL: 'mongodb+srv://reader:p%40ss%2Fw0rd@cluster0.example.net/?authSource=admin&tlsCAFile=/etc/ssl/mongo-ca.pem',
    }).mongo.url;
    const atlas = new MongoClient(srv).options;
    expect([atlas.tls, atlas.credentials?.username, atlas.credentials?.password, atlas.credentials?.source]).toEqual([
      true,
      'reader',
      'p@ss/w0rd',
      'admin',
    ]);
    expect(atlas.tlsCAFile).toBe('/etc/ssl/mongo-ca.pem');
    const replicaSet = loadConfig({
      MONGO_URL:
        'mongodb://projector:secret@db1.example:27017,db2.example:27017/?replicaSet=rs0&tls=true&tlsCertificateKeyFile=/run/secrets/mongo-client.pem&authSource=admin&authMechanism=SCRAM-SHA-256',
    }).mongo.url;
    const own = new MongoClient(replicaSet).options;
    expect([own.tls, own.credentials?.mechanism, own.tlsCertificateKeyFile, own.replicaSet]).toEqual([
      true,
      'SCRAM-SHA-256',
      '/run/secrets/mongo-client.pem',
      'rs0',
    ]);
  });

  it('rejects integers not written as plain digits', () => {
    for (const bad of [' 8080', '8080.0', '+8080', '0x1f90']) {
      expect(() => loadConfig({ API_PORT: bad })).toThrow(/API_PORT: must be a whole number/);
    }
  });

  it('is documented: the table of docs/configuration.md lists every variable with its default, and no other', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const variable of configVariables) {
      // An empty default (an optional server such as REDIS_URL) is written "(unset)".
      const shown = variable.default === '' ? '\\(unset\\)' : `\`${variable.default.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``;
      expect(doc, variable.name).toMatch(new RegExp(`\\| \`${variable.name}\` \\| ${shown} \\|`));
    }
    const rows = [...doc.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual(configVariables.map((v) => v.name));
  });
});
