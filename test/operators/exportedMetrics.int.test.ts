import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka } from '../../services/kafka/index.ts';
import { createLogger } from '../../services/logger.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { waitFor } from '../support/waitFor.ts';
import { exposedMetricNames } from './exposedMetricNames.ts';
import { dashboardQueries, metricsNotExported, ruleQueries } from './operatorQueries.ts';

// The real api/main.ts and projector/main.ts, started as operators start them (environment
// only), scraped on their operators' ports: what operators/ reads is what they serve, under the
// `service` label every alert selects on, and a caught-up projector reports a lag of 0 seconds.

const servers = testServers();
const db = uniqueName('operators');
const topic = uniqueName('operators');
const processes: NodeProcess[] = [];
const pages = { api: '', projector: '' };
let apiUrl = '';

async function scrape(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return res.text();
}

function start(entry: string, env: Record<string, string>): NodeProcess {
  const child = spawnNode(fileURLToPath(new URL(entry, import.meta.url)), [], {
    ...process.env,
    LOG_LEVEL: 'warn',
    OPS_HOST: '127.0.0.1',
    MONGO_URL: servers.mongoUrl,
    MONGO_DB: db,
    KAFKA_BROKERS: servers.kafkaBrokers.join(','),
    KAFKA_TOPIC: topic,
    ...env,
  });
  processes.push(child);
  return child;
}

/** The value of `metric`, a series with no label but `service`, on a scraped page. */
function sample(page: string, metric: string): string | undefined {
  return new RegExp(`^${metric}\\{service="[a-z]+"\\} (\\S+)$`, 'm').exec(page)?.[1];
}

beforeAll(async () => {
  const [apiPort, apiOps, projectorOps] = await freePorts(3);
  apiUrl = `http://127.0.0.1:${apiPort}`;
  const projector = start('../../projector/main.ts', {
    KAFKA_GROUP_ID: topic,
    KAFKA_TOPIC_PARTITIONS: '2',
    PROJECTOR_OPS_PORT: String(projectorOps),
    PROJECTOR_BOOTSTRAP_MIN_EVENTS: '0',
  });
  const api = start('../../api/main.ts', {
    API_PORT: String(apiPort),
    API_OPS_PORT: String(apiOps),
    API_PUBLIC_URL: apiUrl,
    REDIS_URL: inject('redisUrl'),
    // Every API on this host shares the Redis budget of 127.0.0.1 under the default key prefix;
    // this test reads metrics, not limits, so another test's requests must not make its one a 429.
    RATE_LIMIT_MAX: '1000000',
  });
  const failed = (child: NodeProcess): Promise<never> =>
    child.exited.then((how) => Promise.reject(new Error(`exited (${String(how)}):\n${child.output()}`)));
  // Scraped once the projector's consumer runs, so its gauges are the live ones.
  pages.projector = await Promise.race([
    failed(projector),
    waitFor(async () => {
      const page = await scrape(`http://127.0.0.1:${projectorOps}/metrics`);
      if (sample(page, 'projector_consumer_running') !== '1') throw new Error('consumer not running yet');
      return page;
    }, 90_000),
  ]);
  await Promise.race([failed(api), waitFor(() => scrape(`${apiUrl}/health/live`), 60_000)]);
  // One request, so the labelled request metrics have a sample to read the labels of.
  expect((await fetch(`${apiUrl}/api/v1/competitions`)).status).toBeLessThan(500);
  pages.api = await waitFor(() => scrape(`http://127.0.0.1:${apiOps}/metrics`), 10_000);
}, 180_000);

afterAll(async () => {
  await Promise.all(processes.map((child) => child.stop()));
  const client = await MongoClient.connect(servers.mongoUrl);
  await client
    .db(db)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
  const admin = createKafka({ clientId: 'operators-test', brokers: servers.kafkaBrokers, logger: createLogger('test', 'silent') }).admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
  await admin.disconnect();
}, 60_000);

describe('the metrics the real processes serve', () => {
  it('include every metric operators/alerts.yml and dashboard.json read', () => {
    const exported = new Set([...exposedMetricNames(pages.projector), ...exposedMetricNames(pages.api)]);
    expect(exported).toContain('api_rate_limit_fallback_total'); // registered only with REDIS_URL
    expect(metricsNotExported([...ruleQueries(), ...dashboardQueries()], exported)).toEqual([]);
  });

  it('carry the service label the alerts select on', () => {
    const samples = (page: string): string[] => page.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(samples(pages.projector).length).toBeGreaterThan(20);
    for (const line of samples(pages.projector)) expect(line).toContain('service="projector"');
    expect(pages.api).toMatch(/^api_requests_total\{.*service="api".*\} 1$/m);
    for (const line of samples(pages.api)) expect(line).toContain('service="api"');
  });

  it("time each database command from the driver's command monitoring, and report readiness, on both processes", () => {
    for (const page of [pages.api, pages.projector]) {
      expect(page).toMatch(
        /^mongodb_command_duration_seconds_count\{[^}]*command="(find|aggregate)"[^}]*outcome="succeeded"[^}]*\} [1-9]\d*$/m,
      );
      expect(sample(page, 'health_ready')).toBe('1');
      expect(Number(sample(page, 'nodejs_heap_size_limit_bytes'))).toBeGreaterThan(0);
    }
    expect(sample(pages.projector, 'projector_bootstrap_running')).toBe('0');
    expect(sample(pages.projector, 'projector_events_topic_keeps_everything')).toBe('1');
    expect(sample(pages.projector, 'projector_events_topic_complete')).toBe('1');
  });

  it('report a caught-up projector as 0 seconds behind, which the lag alerts never fire on', () => {
    expect(sample(pages.projector, 'projector_lag_seconds')).toBe('0');
    expect(sample(pages.projector, 'projector_clock_sweep_duration_seconds_count')).toMatch(/^[1-9]\d*$/);
  });
});
