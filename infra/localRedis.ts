import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { installDebianPackage, findExecutable } from './installDebianPackage.ts';
import { RUN } from './paths.ts';
import { isOurProcess, readPidFile, startDetached, stopProcess, waitUntil } from './processes.ts';
import { signalProcess } from './signalProcess.ts';

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
export interface RedisInstance {
  readonly url: string;
  readonly files: { pidFile: string; logFile: string; dataDir: string };
  isOurs(): boolean;
  /** Starts it unless it already runs; false when it was running. */
  start(log: (line: string) => void): Promise<boolean>;
  /** SIGTERM, then SIGKILL after the grace period; false when nothing of ours ran. */
  stop(graceMs?: number): Promise<boolean>;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT...) to it; false when nothing of ours runs. */
  signal(signal: NodeJS.Signals): boolean;
}

export function redisInstance(opts: RedisInstanceOptions): RedisInstance {
  const pidFile = join(opts.runDir, 'redis.pid');
  const logFile = join(opts.runDir, 'redis.log');
  const dataDir = join(opts.runDir, 'data');
  const url = localRedisUrl(opts.port);
  const isOurs = (): boolean => isOurProcess(readPidFile(pidFile));
  return {
    url,
    files: { pidFile, logFile, dataDir },
    isOurs,
    async start(log) {
      if (isOurs()) return false;
      if (await redisAnswers(url)) {
        throw new Error(
          `a Redis server not started by this project already answers on 127.0.0.1:${opts.port}; set REDIS_URL to use it, or set LOCAL_REDIS_PORT`,
        );
      }
      await installRedis(log);
      mkdirSync(dataDir, { recursive: true });
      log(`starting Redis on 127.0.0.1:${opts.port} (log: ${logFile})`);
      startDetached({
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
        logFile,
        pidFile,
        // Its own folder: a pid reused by another redis-server (or anything else) is never ours.
        marker: dataDir,
      });
      await waitUntil('Redis', () => redisAnswers(url), { timeoutMs: 30_000, isStillRunning: isOurs, logFile });
      return true;
    },
    stop: (graceMs) => stopProcess(pidFile, graceMs),
    signal: (signal) => signalProcess(pidFile, signal),
  };
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
