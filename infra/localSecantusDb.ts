import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { paths } from './paths.ts';
import { isOurProcess, readPidFile, run, startDetached, stopProcess, waitUntil } from './processes.ts';

// SecantusDB: the MongoDB wire protocol over WiredTiger, with a planner that uses our indexes.
// Built once from crates.io with the machine's cargo; we run it as a separate process and link
// nothing of it (GPL-2.0). A pre-release, so the exact version is pinned.
const CRATE = 'secantus-mdb';
export const SECANTUS_VERSION = '0.5.3-beta.196';
const pidFile = join(paths.secantusRun, 'secantusdb.pid');
const logFile = join(paths.secantusRun, 'secantusdb.log');

export async function installSecantusDb(log: (line: string) => void): Promise<void> {
  if (existsSync(paths.secantusBinary)) return;
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

export function secantusDbIsOurs(): boolean {
  return isOurProcess(readPidFile(pidFile));
}

export async function startSecantusDb(port: number, log: (line: string) => void): Promise<boolean> {
  const url = localMongoUrl(port);
  if (secantusDbIsOurs()) return false;
  if (await mongoAnswers(url)) {
    throw new Error(`a MongoDB-wire server not started by this project already answers on 127.0.0.1:${port}; set MONGO_URL to use it, or stop it`);
  }
  await installSecantusDb(log);
  const data = join(paths.secantusRun, 'data');
  mkdirSync(data, { recursive: true });
  log(`starting SecantusDB on 127.0.0.1:${port} (log: ${logFile})`);
  startDetached({
    command: paths.secantusBinary,
    // --sync-on-commit: without it an acknowledged `j: true` write may be lost on kill -9
    // (measured: 158-198 of 200 kept); with it, what MongoDB promises for `j: true` holds.
    args: ['--host', '127.0.0.1', '--port', String(port), '--storage-path', data, '--sync-on-commit'],
    logFile,
    pidFile,
    marker: paths.secantusBinary,
  });
  await waitUntil('SecantusDB', () => mongoAnswers(url), { timeoutMs: 60_000, isStillRunning: secantusDbIsOurs, logFile });
  return true;
}

export function stopSecantusDb(): Promise<boolean> {
  return stopProcess(pidFile);
}

export const secantusDbFiles = { pidFile, logFile };
