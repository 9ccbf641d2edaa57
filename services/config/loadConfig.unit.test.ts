import { readFileSync } from 'node:fs';
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
