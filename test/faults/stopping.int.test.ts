import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafka } from '../../services/kafka/index.ts';
import { createLogger } from '../../services/logger.ts';
import { testServers, uniqueName } from '../support/isolation.ts';
import { waitFor } from '../support/waitFor.ts';
import { freePorts } from './support/freePort.ts';

// The real api/main.ts, projector/main.ts and scripts/start.sh (what `npm start` runs), with a
// stdout no reader empties: a full pipe, a pipe whose reader has gone, a full disk. On SIGTERM
// each must finish its graceful shutdown (exit code 0) well within its 20 s grace period, and
// `npm start` must leave no process of its own behind. Before the log destination of
// services/logDestination.ts, the full pipe held the process forever: pino's exit-time flush
// writes synchronously into it and retries without end.

const servers = testServers();
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'stopping-'));
const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
const names = { dbs: [] as string[], topics: [] as string[] };
let fifos = 0;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  const client = await MongoClient.connect(servers.mongoUrl);
  for (const db of names.dbs)
    await client
      .db(db)
      .dropDatabase()
      .catch(() => undefined);
  await client.close();
  const admin = createKafka({ clientId: 'stopping-test', brokers: servers.kafkaBrokers, logger: createLogger('test', 'silent') }).admin();
  await admin.connect();
  await admin.deleteTopics({ topics: names.topics.flatMap((t) => [t, `${t}.dlq`]) }).catch(() => undefined);
  await admin.disconnect();
}, 60_000);

/** A named pipe: the reader's end (non-blocking, so the test polls it) and a blocking writer's end for a child. */
function fifo(): { reader: number; writer: number } {
  const path = join(dir, `fifo-${fifos++}`);
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY);
  return { reader, writer };
}

const stdouts = {
  /** Its reader is alive but reads nothing (a pager that stopped, a stuck log shipper), and it is full already. */
  'a full pipe': (): number => {
    const { reader, writer } = fifo();
    const filler = openSync(`/proc/self/fd/${writer}`, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      for (;;) writeSync(filler, Buffer.alloc(4096, 0x2e));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
    closeSync(filler);
    cleanups.push(() => closeSync(reader));
    return writer;
  },
  /** Its reader has gone (the `tee` of a closed terminal): every write fails with EPIPE. */
  'a pipe whose reader has gone': (): number => {
    const { reader, writer } = fifo();
    closeSync(reader);
    return writer;
  },
  /** Every write fails with ENOSPC. */
  'a full disk': (): number => openSync('/dev/full', 'w'),
};

interface Started {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `command` with `stdout` as its stdout (and its stderr too for a terminal-like `npm start`; else stderr is kept for failures). */
function start(command: string, args: string[], stdout: number, env: Record<string, string>, asTerminal = false): Started {
  // A terminal's session gets its own process group, so that every process it started can be looked for afterwards.
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', stdout, asTerminal ? stdout : 'pipe'],
    env: { ...process.env, ...env },
    detached: asTerminal,
  });
  closeSync(stdout);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-10_000)));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exit;
    }
    // A failed `npm start` test must not leave its services running behind a killed script.
    if (asTerminal && processGroupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
  });
  return { child, stderr: () => stderr, exit };
}

/** SIGTERM, then how long the exit took (SIGKILL at 30 s: a hang fails the test, not the run). */
async function stop(process_: Started): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const began = performance.now();
  process_.child.kill('SIGTERM');
  const killer = setTimeout(() => process_.child.kill('SIGKILL'), 30_000);
  const how = await process_.exit;
  clearTimeout(killer);
  return { ...how, ms: performance.now() - began };
}

async function answers(url: string, timeoutMs = 2_000): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return res.text();
}

function serviceEnv(name: string, ports: { api: number; apiOps: number; projectorOps: number }): Record<string, string> {
  names.dbs.push(name);
  names.topics.push(name);
  return {
    LOG_LEVEL: 'info',
    MONGO_URL: servers.mongoUrl,
    MONGO_DB: name,
    KAFKA_BROKERS: servers.kafkaBrokers.join(','),
    KAFKA_TOPIC: name,
    KAFKA_GROUP_ID: name,
    KAFKA_TOPIC_PARTITIONS: '1',
    PROJECTOR_BOOTSTRAP_MIN_EVENTS: '0',
    // Each API its own in-memory budget: with a REDIS_URL from the shell, the 500-request tests
    // spent 127.0.0.1's shared budget and start.sh's API answered 429.
    REDIS_URL: '',
    OPS_HOST: '127.0.0.1',
    API_PORT: String(ports.api),
    API_OPS_PORT: String(ports.apiOps),
    API_PUBLIC_URL: `http://127.0.0.1:${ports.api}`,
    PROJECTOR_OPS_PORT: String(ports.projectorOps),
  };
}

/** Three distinct free ports (held open together while chosen, so none is handed out twice). */
async function ports(): Promise<{ api: number; apiOps: number; projectorOps: number }> {
  const [api, apiOps, projectorOps] = await freePorts(3);
  return { api, apiOps, projectorOps };
}

describe.each(Object.entries(stdouts))('with stdout %s', (_, stdout) => {
  it('the API serves, keeps answering while it logs, and stops gracefully on SIGTERM', async () => {
    const p = await ports();
    const api = start(process.execPath, ['api/main.ts'], stdout(), serviceEnv(uniqueName('stop_api'), p));
    const base = `http://127.0.0.1:${p.api}`;
    await Promise.race([
      api.exit.then((how) => Promise.reject(new Error(`exited (${JSON.stringify(how)}): ${api.stderr()}`))),
      waitFor(() => answers(`${base}/health/live`), 60_000),
    ]);
    // About 500 request log lines (some answered 429): far more than the pipe could take.
    for (let i = 0; i < 50; i++)
      await Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/api/v1/competitions?limit=1`).then((r) => r.arrayBuffer())));
    await answers(`${base}/health/live`);
    const how = await stop(api);
    expect(how, api.stderr()).toMatchObject({ code: 0, signal: null });
    expect(how.ms).toBeLessThan(20_000);
  }, 120_000);

  it('the projector consumes and stops gracefully on SIGTERM', async () => {
    const p = await ports();
    const projector = start(process.execPath, ['projector/main.ts'], stdout(), serviceEnv(uniqueName('stop_projector'), p));
    await Promise.race([
      projector.exit.then((how) => Promise.reject(new Error(`exited (${JSON.stringify(how)}): ${projector.stderr()}`))),
      waitFor(async () => {
        if (!/^projector_consumer_running\{[^}]*\} 1$/m.test(await answers(`http://127.0.0.1:${p.projectorOps}/metrics`)))
          throw new Error('consumer not running yet');
      }, 90_000),
    ]);
    const how = await stop(projector);
    expect(how, projector.stderr()).toMatchObject({ code: 0, signal: null });
    expect(how.ms).toBeLessThan(20_000);
  }, 120_000);
});

describe('a service stopped while it is still starting', () => {
  it('the projector, still trying to reach Kafka, stops at once with code 0 (the signal was armed before its first connection)', async () => {
    const p = await ports();
    const [closedPort] = await freePorts(1); // nothing listens there: kafkajs retries the connection
    const logFile = join(dir, `${uniqueName('starting')}.log`);
    const env = { ...serviceEnv(uniqueName('stop_starting'), p), KAFKA_BROKERS: `127.0.0.1:${closedPort}` };
    const projector = start(process.execPath, ['projector/main.ts'], openSync(logFile, 'w'), env);
    await Promise.race([
      projector.exit.then((how) => Promise.reject(new Error(`exited (${JSON.stringify(how)}): ${projector.stderr()}`))),
      waitFor(async () => {
        await Promise.resolve();
        if (!/ECONNREFUSED/.test(readFileSync(logFile, 'utf8'))) throw new Error('no connection attempt logged yet');
      }, 60_000),
    ]);
    // Before, SIGTERM here found no handler and killed the process (signal SIGTERM, claims and connections left as they were).
    const how = await stop(projector);
    expect(how, projector.stderr()).toMatchObject({ code: 0, signal: null });
    expect(how.ms).toBeLessThan(10_000);
    expect(readFileSync(logFile, 'utf8')).toMatch(/"msg":"shutting down"/);
  }, 120_000);
});

describe('npm start (scripts/start.sh) after the reader of its output has gone', () => {
  it('stops the projector, the API and its log view on SIGTERM and leaves no process behind', async () => {
    const p = await ports();
    const { reader, writer } = fifo();
    const script = start('bash', ['scripts/start.sh'], writer, serviceEnv(uniqueName('stop_start'), p), true);
    const buffer = Buffer.alloc(1 << 16);
    let output = '';
    await Promise.race([
      script.exit.then((how) => Promise.reject(new Error(`start.sh exited (${JSON.stringify(how)}): ${output}${script.stderr()}`))),
      waitFor(
        async () => {
          await Promise.resolve();
          try {
            const n = readSync(reader, buffer);
            output += buffer.subarray(0, n).toString();
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
          }
          if (!output.includes('The API is ready')) throw new Error('not ready yet');
        },
        120_000,
        200,
      ),
    ]);
    // The terminal goes away; the services go on (they write to files), the log view fails.
    closeSync(reader);
    for (let i = 0; i < 20; i++) await answers(`http://127.0.0.1:${p.api}/api/v1/competitions?limit=1`);
    const group = script.child.pid!;
    const how = await stop(script);
    expect(how.signal, output + script.stderr()).toBeNull();
    expect(how.ms).toBeLessThan(25_000);
    expect(processGroupAlive(group)).toBe(false);
  }, 240_000);
});

/** Whether any process of the group is left (signal 0 reaches a group only while it has members). */
function processGroupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
