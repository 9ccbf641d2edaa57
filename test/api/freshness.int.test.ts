import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION_FRESHNESS } from '../../api/readModelSource.ts';
import { recordFreshness } from '../../projector/freshness/recordFreshness.ts';
import { liveGroupId } from '../../projector/consume/liveGroupId.ts';
import { createKafka, ensureTopics } from '../../services/kafka/index.ts';
import { META_COLLECTION, readMeta } from '../../services/mongo/index.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { waitFor } from '../support/waitFor.ts';
import { openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, riga } from './calendarSeed.ts';

const silent = pino({ level: 'silent' });
let database: Database;
let monitored: MongoClient;
let apis: ApiServer[];
const metaReads: number[] = [];

beforeAll(async () => {
  database = await openDatabase('freshness');
  await database.project(calendarEvents, NOW);
  // The API instances get their own client, whose commands are watched: every version read is a
  // `find` on the meta collection.
  monitored = await MongoClient.connect(testServers().mongoUrl, { monitorCommands: true });
  monitored.on('commandStarted', (event: CommandStartedEvent) => {
    if (event.commandName === 'find' && event.command.find === META_COLLECTION) metaReads.push(Date.now());
  });
  const db = monitored.db(database.db.databaseName);
  apis = [await startApi(db, NOW), await startApi(db, NOW)];
});

afterAll(async () => {
  await Promise.all(apis.map((api) => api.close()));
  await monitored.close();
  await database.drop();
});

describe('freshness of the cached path (decisions.md: a version read at most 50 ms old)', () => {
  it('shows a write to every request arriving 50 ms after it on both instances, with about 20 version reads per second per instance', async () => {
    const path = '/api/v1/competitions/riga-open-2025';
    const seen: Array<{ sentAt: number; name: string; cache: string | null }> = [];
    let writtenAt = Number.POSITIVE_INFINITY;
    let writeStartedAt = Number.POSITIVE_INFINITY;
    const loadUntil = Date.now() + 2_500;
    const readsBefore = metaReads.length;
    const startedAt = Date.now();
    // Two callers per instance, back to back, for 2.5 s; the edit lands after one second.
    const callers = apis.flatMap((api) =>
      [0, 1].map(async () => {
        while (Date.now() < loadUntil) {
          const sentAt = Date.now();
          const res = await api.request(path);
          seen.push({ sentAt, name: res.json.data.name as string, cache: res.headers.get('x-cache') });
        }
      }),
    );
    const writer = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      riga.at('2025-06-14T09:45:00Z', 'competition.details_changed', { name: 'Riga Open 2025 (edited)' });
      writeStartedAt = Date.now();
      // The batch ends after its documents land (with the change feed's announcement), so only
      // requests sent before it began are sure to precede the write.
      await database.project(riga.events.slice(-1), NOW);
      writtenAt = Date.now();
    })();
    await Promise.all([...callers, writer]);
    const seconds = (Date.now() - startedAt) / 1000;

    const late = seen.filter((r) => r.sentAt >= writtenAt + VERSION_FRESHNESS.maxAgeMs);
    expect(late.length).toBeGreaterThan(50);
    expect(late.filter((r) => r.name !== 'Riga Open 2025 (edited)')).toEqual([]);
    // Before the write every request saw the old name, and only a caller's first could miss (the
    // fill): however few requests a loaded machine got through, the rest were hits.
    const early = seen.filter((r) => r.sentAt < writeStartedAt - 200);
    expect(early.every((r) => r.name === 'Riga Open 2025')).toBe(true);
    expect(early.filter((r) => r.cache !== 'HIT').length).toBeLessThanOrEqual(apis.length * 2);
    // The version reads do not grow with the load: at most one per 45 ms per instance (+1 each
    // for the first request), far fewer than the requests served.
    const reads = metaReads.length - readsBefore;
    const perInstancePerSecond = reads / apis.length / seconds;
    expect(perInstancePerSecond).toBeLessThanOrEqual(1000 / VERSION_FRESHNESS.refreshEveryMs + 1);
    expect(reads).toBeLessThan(seen.length / 3);
    process.stdout.write(
      `freshness: ${seen.length} requests in ${seconds.toFixed(1)} s on 2 instances, ${reads} version reads ` +
        `(${perInstancePerSecond.toFixed(1)} per instance per second); ${late.length} requests 50 ms after the write all saw it\n`,
    );
  });

  it('sends Last-Modified on the competition detail and answers If-Modified-Since with 304 only without If-None-Match', async () => {
    const [api] = apis as [ApiServer];
    const first = await api.request('/api/v1/competitions/riga-open-2025');
    const lastModified = first.headers.get('last-modified');
    expect(lastModified).toBe(new Date(first.json.data.updatedAt as string).toUTCString());
    const same = await api.request('/api/v1/competitions/riga-open-2025', { headers: { 'If-Modified-Since': lastModified! } });
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.headers.get('last-modified')).toBe(lastModified);
    const earlier = new Date(Date.parse(lastModified!) - 1000).toUTCString();
    expect((await api.request('/api/v1/competitions/riga-open-2025', { headers: { 'If-Modified-Since': earlier } })).status).toBe(200);
    // RFC 9110: If-None-Match takes precedence; a non-matching tag means 200 whatever the date.
    const both = await api.request('/api/v1/competitions/riga-open-2025', {
      headers: { 'If-None-Match': 'W/"other"', 'If-Modified-Since': lastModified! },
    });
    expect(both.status).toBe(200);
    // An unparseable date is ignored.
    expect((await api.request('/api/v1/competitions/riga-open-2025', { headers: { 'If-Modified-Since': 'yesterday' } })).status).toBe(200);
    // Lists have no single modification instant.
    expect((await api.request('/api/v1/competitions')).headers.get('last-modified')).toBeNull();
  });

  it('carries X-Data-Current-At: the instant up to which every event on the topic is applied, recorded by the projector', async () => {
    const kafka = createKafka({ clientId: 'freshness-test', brokers: testServers().kafkaBrokers, logger: silent });
    const admin = kafka.admin();
    const producer = kafka.producer();
    await Promise.all([admin.connect(), producer.connect()]);
    const topic = uniqueName('freshness');
    const groupId = uniqueName('freshness-group');
    const group = liveGroupId(groupId, (await readMeta(database.db)).generation);
    await ensureTopics(admin, [{ topic, numPartitions: 2 }]);
    const send = (n: number): Promise<unknown> =>
      producer.send({ topic, messages: Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: '{}' })) });
    // The projector's group has applied (committed) everything the topic holds.
    const commitEnds = async (): Promise<void> => {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({ groupId: group, topic, partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })) });
    };
    await send(10);
    await commitEnds();
    const caughtUpAt = Date.now();
    const stop = recordFreshness({ admin, db: database.db, topic, dlqTopic: `${topic}.dlq`, groupId, logger: silent, everyMs: 200 });
    try {
      const currentAt = async (): Promise<number> => {
        await new Promise((resolve) => setTimeout(resolve, VERSION_FRESHNESS.maxAgeMs + 5));
        const header = (await apis[0]!.request('/api/v1/competitions')).headers.get('x-data-current-at');
        return header === null ? Number.NaN : Date.parse(header);
      };
      await waitFor(async () => expect(await currentAt()).toBeGreaterThanOrEqual(caughtUpAt), 10_000);

      // New events nobody has applied: the instant stops before they were published...
      const publishedAt = Date.now();
      await send(5);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await currentAt()).toBeLessThan(publishedAt);
      // ...and moves past it once they are committed; a 304 carries it too.
      await commitEnds();
      await waitFor(async () => expect(await currentAt()).toBeGreaterThan(publishedAt), 10_000);
      const first = await apis[0]!.request('/api/v1/competitions');
      const notModified = await apis[0]!.request('/api/v1/competitions', { headers: { 'If-None-Match': first.headers.get('etag')! } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('x-data-current-at')).toMatch(/^\d{4}-\d\d-\d\dT/);
      // Static documents carry none.
      expect((await apis[0]!.request('/api/v1/openapi.json')).headers.get('x-data-current-at')).toBeNull();
    } finally {
      stop();
      await Promise.all([admin.disconnect(), producer.disconnect()]);
    }
  });
});
