import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { paths } from './paths.ts';
import { localServerInstance, type LocalServerInstance } from './localServerInstance.ts';
import { run } from './processes.ts';
import { withInstallLock } from './installLock.ts';

// SecantusDB: the MongoDB wire protocol over WiredTiger, with a planner that uses our indexes.
// Built once from crates.io with the machine's cargo; we run it as a separate process and link
// nothing of it (GPL-2.0). A pre-release, so the exact version is pinned.
const CRATE = 'secantus-mdb';
export const SECANTUS_VERSION = '0.5.3-beta.196';
export async function installSecantusDb(log: (line: string) => void): Promise<void> {
  const root = dirname(dirname(paths.secantusBinary));
  await withInstallLock(
    `${root}.lock`,
    () => existsSync(paths.secantusBinary),
    () => buildSecantusDb(log),
  );
}

async function buildSecantusDb(log: (line: string) => void): Promise<void> {
  const root = dirname(dirname(paths.secantusBinary));
  const staging = `${root}.building`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`building SecantusDB ${SECANTUS_VERSION} from crates.io into .tools/secantusdb (about 6 minutes on 2 cores, once)`);
  // --ignore-rust-version: the crate asks for rustc 1.98 and builds with the machines' 1.95.
  // WiredTiger is compiled from the crate's bundled source with the machine's cmake and cc.
  await run('cargo', ['install', CRATE, '--version', SECANTUS_VERSION, '--locked', '--ignore-rust-version', '--root', staging, '--quiet'], {
    env: { ...process.env, CARGO_TARGET_DIR: join(staging, 'target') },
  });
  mkdirSync(dirname(paths.secantusBinary), { recursive: true });
  // Copied into place last, so an interrupted build never leaves a binary that looks installed.
  copyFileSync(join(staging, 'bin', 'secantusd-rs'), `${paths.secantusBinary}.tmp`);
  chmodSync(`${paths.secantusBinary}.tmp`, 0o755);
  await run('mv', [`${paths.secantusBinary}.tmp`, paths.secantusBinary]);
  rmSync(staging, { recursive: true, force: true });
}

/** The connection string of a local SecantusDB: it presents itself as a one-node replica set. */
export function localMongoUrl(port: number): string {
  return `mongodb://127.0.0.1:${port}/?directConnection=true`;
}

export async function mongoAnswers(url: string): Promise<boolean> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
  try {
    await client.connect();
    const reply = await client.db('admin').command({ ping: 1 });
    return reply.ok === 1;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * The local servers' `transactionLifetimeLimitSeconds`: short enough that a transaction a killed
 * or paused process left open is aborted (abandonedTransactionGoneWithinMs) before the default
 * Kafka session hands that process's partitions on, so the projector writes its live bulks as
 * transactions here (MongoProjectionStore). A runtime parameter: set at every start.
 */
const LOCAL_TRANSACTION_LIFETIME_SECONDS = 3;

async function limitTransactionLifetime(url: string): Promise<void> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: LOCAL_TRANSACTION_LIFETIME_SECONDS });
  } finally {
    await client.close();
  }
}

export interface SecantusDbInstanceOptions {
  port: number;
  /** Folder of its data, log and pid file (the shared instance: .run/secantusdb). */
  runDir: string;
  /** WiredTiger cache (e.g. '256M'); the server's default (4G) when absent. */
  cacheSize?: string;
  /** Fsync the log on every commit (see prepare()); true unless a durability probe measures without. */
  syncOnCommit?: boolean;
}

/** One SecantusDB server: its own port and folder, so a test can stop, kill or pause it alone. */
export interface SecantusDbInstance extends LocalServerInstance {
  readonly url: string;
}

export function secantusDbInstance(opts: SecantusDbInstanceOptions): SecantusDbInstance {
  const url = localMongoUrl(opts.port);
  const server = localServerInstance({
    name: 'SecantusDB',
    runDir: opts.runDir,
    fileBase: 'secantusdb',
    address: `127.0.0.1:${opts.port}`,
    foreign: { what: 'a MongoDB-wire server', advice: 'set MONGO_URL to use it, or stop it' },
    answers: () => mongoAnswers(url),
    install: installSecantusDb,
    // Started on its folder's data, so a restarted instance finds what it had.
    prepare: (dataDir) => ({
      command: paths.secantusBinary,
      // --sync-on-commit: without it an acknowledged `j: true` write may be lost on kill -9
      // (measured: 158-198 of 200 kept); with it, what MongoDB promises for `j: true` holds.
      args: [
        '--host',
        '127.0.0.1',
        '--port',
        String(opts.port),
        '--storage-path',
        dataDir,
        ...(opts.syncOnCommit === false ? [] : ['--sync-on-commit']),
        ...(opts.cacheSize ? ['--cache-size', opts.cacheSize] : []),
      ],
      // Its own data folder: a pid reused by another SecantusDB (or anything else) is never ours.
      marker: dataDir,
    }),
    startTimeoutMs: 60_000,
    configure: () => limitTransactionLifetime(url),
  });
  return { ...server, url };
}

/**
 * WiredTiger cache of the shared instance. SecantusDB builds an index in one statement
 * transaction; when the cache cannot hold its uncommitted keys, WiredTiger rolls it back and
 * SecantusDB retries it from the start without end (logged as "create_index retrying on write
 * conflicts"): the search index of a large rebuild never finished with the default cache
 * (docs/local-database.md has the measurement). A cap, not an allocation: small data stays small.
 */
const SHARED_CACHE_SIZE = '12G';

// The shared local instance of `npm start` and the test runs.
const shared = (port = 27017): SecantusDbInstance => secantusDbInstance({ port, runDir: paths.secantusRun, cacheSize: SHARED_CACHE_SIZE });

export function secantusDbIsOurs(): boolean {
  return shared().isOurs();
}

export function startSecantusDb(port: number, log: (line: string) => void): Promise<boolean> {
  return shared(port).start(log);
}

export function stopSecantusDb(): Promise<boolean> {
  return shared().stop();
}

export const secantusDbFiles = { pidFile: shared().files.pidFile, logFile: shared().files.logFile };
