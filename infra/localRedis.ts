import { join } from 'node:path';
import { Redis } from 'ioredis';
import { installDebianPackage, findExecutable } from './installDebianPackage.ts';
import { RUN } from './paths.ts';
import { localServerInstance, type LocalServerInstance } from './localServerInstance.ts';

// Redis for the rate limit shared by several API instances: Debian's redis-server package,
// one process per instance with persistence off (the counts live one window; losing them on a
// restart costs at most one window of accuracy).

/** The redis-server binary on PATH (or Debian's /usr/bin), or undefined. */
export function redisServerBinary(): string | undefined {
  return findExecutable('redis-server');
}

/** Installs Debian's redis-server when it is missing (apt-get needs root, or sudo). */
export async function installRedis(log: (line: string) => void): Promise<void> {
  await installDebianPackage(
    {
      pkg: 'redis-server',
      executable: 'redis-server',
      otherwise: "install Debian's redis-server package, or set REDIS_URL to a Redis to use",
    },
    log,
  );
}

export function localRedisUrl(port: number): string {
  return `redis://127.0.0.1:${port}`;
}

/** True when a Redis server answers PING at `url` within a second. */
export async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export interface RedisInstanceOptions {
  port: number;
  /** Folder of its working directory, log and pid file (the shared instance: .run/redis). */
  runDir: string;
}

/** One redis-server: its own port and folder, so a test can stop or kill it alone. */
export interface RedisInstance extends LocalServerInstance {
  readonly url: string;
}

export function redisInstance(opts: RedisInstanceOptions): RedisInstance {
  const url = localRedisUrl(opts.port);
  const server = localServerInstance({
    name: 'Redis',
    runDir: opts.runDir,
    fileBase: 'redis',
    address: `127.0.0.1:${opts.port}`,
    foreign: { what: 'a Redis server', advice: 'set REDIS_URL to use it, or set LOCAL_REDIS_PORT' },
    answers: () => redisAnswers(url),
    install: installRedis,
    prepare: (dataDir) => ({
      command: redisServerBinary() ?? 'redis-server',
      // In the foreground (not --daemonize) so the pid file names the server itself;
      // --set-proc-title no keeps the command line, and with it the marker, as started.
      args: [
        '--port',
        String(opts.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dataDir,
        '--daemonize',
        'no',
        '--set-proc-title',
        'no',
      ],
      // Its own folder: a pid reused by another redis-server (or anything else) is never ours.
      marker: dataDir,
    }),
    startTimeoutMs: 30_000,
  });
  return { ...server, url };
}

// The shared local instance of `npm start` and the test runs.
const shared = (port = 6379): RedisInstance => redisInstance({ port, runDir: join(RUN, 'redis') });

export function redisIsOurs(): boolean {
  return shared().isOurs();
}

export function startRedis(port: number, log: (line: string) => void): Promise<boolean> {
  return shared(port).start(log);
}

export function stopRedis(): Promise<boolean> {
  return shared().stop();
}

export const redisFiles = { pidFile: shared().files.pidFile, logFile: shared().files.logFile };
