import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Admin, Kafka, Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { readProjectorStatus } from '../../projector/status/readProjectorStatus.ts';
import { ROOT } from '../../infra/paths.ts';
import { countTopicMessages, createKafka } from '../../services/kafka/index.ts';
import { createLogger } from '../../services/logger.ts';
import { connectMongo, readMeta, readRebuildProgress, type MongoConnection } from '../../services/mongo/index.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { spawnNode, type NodeProcess } from '../faults/support/spawnNode.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { waitFor } from '../support/waitFor.ts';

// The operators' commands as an operator runs them (`npm run status`, `npm run dead-letters`,
// `npm run rebuild`: the same entry points the image runs from dist/), against a real projector
// process on the real broker and database: the projector dead-letters two bad messages, the
// commands list them with their reasons, republish one to the partition it came from, and
// rebuild the read model, which every projector then reports.

const execFileAsync = promisify(execFile);
const servers = testServers();
const topic = uniqueName('operator_commands');
const dlqTopic = `${topic}.dlq`;
const dbName = uniqueName('operator_commands');
const history = [...createHistory({ seed: 23, events: 300, now: new Date() })];
const notJson = Buffer.from('{"eventId": oops');
const badSchema = JSON.stringify({ ...history[0]!, eventId: 'not-a-uuid' });

let env: NodeJS.ProcessEnv;
let projector: NodeProcess;
let opsPort = 0;
let kafka: Kafka;
let admin: Admin;
let producer: Producer;
let mongo: MongoConnection;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs an operator command to its end: `node <entry> <args>`, or `npm run <script> -- <args>`. */
async function run(command: string[], timeout = 120_000): Promise<Run> {
  const [file, args] = command[0] === 'npm' ? ['npm', command.slice(1)] : [process.execPath, command];
  try {
    const { stdout, stderr } = await execFileAsync(file, args, { cwd: ROOT, env, timeout });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const entry = (name: string): string => fileURLToPath(new URL(`../../projector/${name}.ts`, import.meta.url));

/** The dead letters' positions in the events topic, as the list prints them, in its order. */
const listedPositions = (stdout: string): string[] => [...stdout.matchAll(new RegExp(`^${topic} (\\d+:\\d+) `, 'gm'))].map((m) => m[1]!);

async function caughtUp(): Promise<void> {
  await waitFor(async () => {
    const status = await readProjectorStatus({ admin, db: mongo.db, topic, dlqTopic, groupId: topic });
    if (status.totalLag !== 0 || status.partitions.length === 0) throw new Error(`lag ${status.totalLag}`);
  }, 90_000);
}

beforeAll(async () => {
  [opsPort] = await freePorts(1);
  env = {
    ...process.env,
    LOG_LEVEL: 'warn',
    OPS_HOST: '127.0.0.1',
    MONGO_URL: servers.mongoUrl,
    MONGO_DB: dbName,
    KAFKA_BROKERS: servers.kafkaBrokers.join(','),
    KAFKA_TOPIC: topic,
    KAFKA_GROUP_ID: topic,
    KAFKA_TOPIC_PARTITIONS: '2',
    PROJECTOR_OPS_PORT: String(opsPort),
    PROJECTOR_BOOTSTRAP_MIN_EVENTS: '0',
  };
  kafka = createKafka({ clientId: 'operator-commands-test', brokers: servers.kafkaBrokers, logger: createLogger('test', 'silent') });
  admin = kafka.admin();
  await admin.connect();
  mongo = await connectMongo(servers.mongoUrl, dbName);
  projector = spawnNode(entry('main'), [], env);
  await Promise.race([
    projector.exited.then((how) => Promise.reject(new Error(`projector exited (${String(how)}):\n${projector.output()}`))),
    waitFor(async () => {
      const page = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
      if (!/^projector_consumer_running\{[^}]*\} 1$/m.test(page)) throw new Error('consumer not running yet');
    }, 90_000),
  ]);
  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const key = history[0]!.aggregateId;
  await producer.send({
    topic,
    acks: -1,
    messages: [
      ...history.map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) })),
      { key, value: notJson },
      { key, value: badSchema },
    ],
  });
  await caughtUp();
  await waitFor(async () => expect(await countTopicMessages(admin, dlqTopic)).toBe(2), 30_000);
}, 180_000);

afterAll(async () => {
  await projector?.stop();
  await producer?.disconnect();
  await admin?.deleteTopics({ topics: [topic, dlqTopic] }).catch(() => undefined);
  await admin?.disconnect();
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
}, 60_000);

describe('npm run status', () => {
  it("prints the lag per partition, the dead letters, the topic's retention and the running projector's figures", async () => {
    const status = await run(['npm', 'run', '--silent', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`topic ${topic}   generation 1   group ${topic}.g1`);
    expect(status.stdout).toContain('total lag 0 messages; dead letters 2 (npm run dead-letters lists them)');
    expect(status.stdout).toContain('retention: the topic keeps every event');
    expect(status.stdout).toContain(`projector at http://127.0.0.1:${opsPort}/metrics:`);
    expect(status.stdout).toContain('  ready yes');
    expect(status.stdout).toMatch(new RegExp(`events applied ${history.length}, duplicates 0, version gaps 0, dead-lettered 2`));

    const json = await run([entry('status'), '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      topic,
      totalLag: 0,
      deadLetters: 2,
      readModel: { generation: 1 },
      projector: { reachable: true },
    });
  });
});

describe('npm run dead-letters', () => {
  it('lists each dead letter with its position in the events topic and its reason', async () => {
    const list = await run(['npm', 'run', '--silent', 'dead-letters']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^2 dead letters in ${dlqTopic}$`, 'm'));
    const positions = listedPositions(list.stdout);
    expect(positions).toHaveLength(2);
    expect(list.stdout).toMatch(/^ {4}.*JSON/im);
    expect(list.stdout).toMatch(/^ {4}.*eventId/m);

    const json = await run([entry('deadLetters'), 'list', '--json']);
    const rows = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { source: { partition: number; offset: string }; size: number; reason: string });
    expect(rows.map((r) => `${r.source.partition}:${r.source.offset}`)).toEqual(positions);
    expect(rows.map((r) => r.size).sort()).toEqual([notJson.length, Buffer.byteLength(badSchema)].sort());
  });

  it('republishes a chosen dead letter to the partition it came from, with its bytes, and refuses unknown positions', async () => {
    const json = await run([entry('deadLetters'), 'list', '--json']);
    const rows = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { source: { partition: number; offset: string }; reason: string });
    const chosen = rows.find((r) => /JSON/i.test(r.reason))!;
    const position = `${chosen.source.partition}:${chosen.source.offset}`;
    const before = await admin.fetchTopicOffsets(topic);

    const unknown = await run([entry('deadLetters'), 'republish', position, '1:999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`nothing republished: no dead letter of ${topic} came from 1:999999`);
    expect(await admin.fetchTopicOffsets(topic)).toEqual(before);
    const misused = await run([entry('deadLetters'), 'republish']);
    expect(misused.code).toBe(2);
    expect(misused.stderr).toContain('usage: npm run dead-letters');

    const republished = await run([entry('deadLetters'), 'republish', position]);
    expect(republished.code).toBe(0);
    expect(republished.stdout).toContain(
      `republished ${position} (key ${history[0]!.aggregateId}) to ${topic} partition ${chosen.source.partition}`,
    );
    const after = await admin.fetchTopicOffsets(topic);
    const grown = after.filter((p) => p.high !== before.find((b) => b.partition === p.partition)!.high);
    expect(grown.map((p) => p.partition)).toEqual([chosen.source.partition]);

    // The copy is the original message: the projector, still unable to fold it, dead-letters it
    // again, from its new position, with the header naming the dead letter it was copied from.
    await caughtUp();
    const again = await waitFor(async () => {
      const list = await run([entry('deadLetters'), 'list', '--json']);
      const lines = list.stdout.trim().split('\n');
      if (lines.length !== 3) throw new Error(`${lines.length} dead letters`);
      return lines.map((line) => JSON.parse(line) as { source: { partition: number; offset: string }; size: number });
    }, 30_000);
    const newest = again.find(
      (r) => !rows.some((old) => old.source.offset === r.source.offset && old.source.partition === r.source.partition),
    )!;
    expect(newest).toMatchObject({
      source: {
        partition: chosen.source.partition,
        offset: String(BigInt(after.find((p) => p.partition === chosen.source.partition)!.high) - 1n),
      },
      size: notJson.length,
    });
  });
});

describe('npm run rebuild', () => {
  it('replays the topic into the next generation, records its progress, and the running projector reports it', async () => {
    const rebuild = await run([entry('rebuild')]);
    expect(rebuild.code).toBe(0);
    // Sentences a person reads (how far, how fast, how long; then each stage), no JSON, no line twice.
    expect(rebuild.stderr).toMatch(/^rebuild: replaying the events topic: [\d,]+ of [\d,]+ events \(\d+ %\), [\d,]+ events\/s, /m);
    expect(rebuild.stderr).toMatch(/^rebuild: every event replayed; deriving the competitions \(\d+ s so far\)$/m);
    const said = rebuild.stderr.trim().split('\n');
    expect(said.filter((line, i) => line.startsWith('{') || line === said[i - 1])).toEqual([]);
    expect(rebuild.stdout).toMatch(
      new RegExp(`^rebuilt generation 2 from ${history.length + 3} messages in [\\d.]+ s \\(generation 1 dropped\\)$`, 'm'),
    );
    expect((await readMeta(mongo.db)).generation).toBe(2);
    expect(await readRebuildProgress(mongo.db)).toMatchObject({ ratio: 1, events: history.length + 3, finishedAt: expect.any(Date) });
    await waitFor(async () => {
      const page = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
      expect(page).toMatch(/^projector_rebuild_progress_ratio\{service="projector"\} 1$/m);
    }, 30_000);
    const status = await run([entry('status')]);
    expect(status.stdout).toMatch(/^last rebuild \(npm run rebuild\): finished \S+, \d+ events$/m);
  }, 180_000);
});
