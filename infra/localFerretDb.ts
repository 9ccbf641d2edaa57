import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { dirname, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { paths } from './paths.ts';
import { isOurProcess, readPidFile, run, startDetached, stopProcess, waitUntil } from './processes.ts';

// FerretDB 1.24 (MongoDB wire protocol over SQLite) built from the Go module proxy.
const MODULE = 'github.com/FerretDB/FerretDB';
const VERSION = 'v1.24.2';
const pidFile = join(paths.ferretRun, 'ferretdb.pid');
const logFile = join(paths.ferretRun, 'ferretdb.log');

function goEnv(): NodeJS.ProcessEnv {
  // The machine's Go, never a downloaded toolchain; pure Go so no C compiler is involved.
  return { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-mod=mod -buildvcs=false' };
}

export async function installFerretDb(log: (line: string) => void): Promise<void> {
  if (existsSync(paths.ferretBinary)) return;
  mkdirSync(dirname(paths.ferretBinary), { recursive: true });
  log(`building FerretDB ${VERSION} from the Go module proxy into .tools/ferretdb (a few minutes when cold)`);
  const info = JSON.parse(await run('go', ['mod', 'download', '-json', `${MODULE}@${VERSION}`], { env: goEnv(), cwd: dirname(paths.ferretBinary) })) as { Dir?: string };
  if (!info.Dir) throw new Error('go mod download did not report the module folder');
  // The module zip lacks build/version/version.txt (upstream issue 2982) and the binary panics
  // without it, so build from a writable copy with the file written in.
  const src = join(dirname(paths.ferretBinary), 'src');
  rmSync(src, { recursive: true, force: true });
  cpSync(info.Dir, src, { recursive: true });
  // Files copied from the Go module cache are read-only.
  await run('chmod', ['-R', 'u+w', src]);
  writeFileSync(join(src, 'build/version/version.txt'), `${VERSION}\n`);
  const tmpBinary = `${paths.ferretBinary}.tmp`;
  await run('go', ['build', '-trimpath', '-o', tmpBinary, './cmd/ferretdb'], { cwd: src, env: goEnv() });
  cpSync(tmpBinary, paths.ferretBinary);
  chmodSync(paths.ferretBinary, 0o755);
  rmSync(tmpBinary, { force: true });
  rmSync(src, { recursive: true, force: true });
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

export function ferretDbIsOurs(): boolean {
  return isOurProcess(readPidFile(pidFile));
}

export async function startFerretDb(port: number, log: (line: string) => void): Promise<boolean> {
  const url = `mongodb://127.0.0.1:${port}/`;
  if (ferretDbIsOurs()) return false;
  if (await mongoAnswers(url)) {
    throw new Error(`a MongoDB-wire server not started by this project already answers on 127.0.0.1:${port}; set MONGO_URL to use it, or stop it`);
  }
  await installFerretDb(log);
  const data = join(paths.ferretRun, 'data');
  mkdirSync(data, { recursive: true });
  setAsideUnreadableDatabases(data, log);
  mkdirSync(join(paths.ferretRun, 'state'), { recursive: true });
  log(`starting FerretDB on 127.0.0.1:${port} (log: ${logFile})`);
  startDetached({
    command: paths.ferretBinary,
    args: [
      // WAL with synchronous=NORMAL: no fsync per commit (FULL made every write wait on this
      // machine's slow fsync, ~100 ms). A killed process loses nothing; only a power loss could
      // drop the last commits, which a local development and test server can afford.
      '--handler=sqlite', `--sqlite-url=file:${data}/?_pragma=synchronous(normal)`, `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${join(paths.ferretRun, 'state')}`, '--telemetry=disable', '--log-level=WARN',
      '--debug-addr=-',
    ],
    logFile, pidFile, marker: paths.ferretBinary,
  });
  await waitUntil('FerretDB', () => mongoAnswers(url), { timeoutMs: 60_000, isStillRunning: ferretDbIsOurs, logFile });
  return true;
}

/**
 * A database file without FerretDB's metadata table (left by a server stopped while creating
 * it) makes FerretDB 1.24 refuse to start at all. Such a file holds nothing FerretDB can read,
 * so it is renamed aside with a warning instead of blocking every later start.
 */
function setAsideUnreadableDatabases(dir: string, log: (line: string) => void): void {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sqlite'))) {
    const path = join(dir, file);
    let readable: boolean;
    try {
      const db = new DatabaseSync(path, { readOnly: true });
      readable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_ferretdb_collections'").get() !== undefined;
      db.close();
    } catch {
      readable = false;
    }
    if (!readable) {
      renameSync(path, `${path}.unreadable-${Date.now()}`);
      log(`set aside ${file}: it has no FerretDB metadata (left by an interrupted start or stop)`);
    }
  }
}

export function stopFerretDb(): Promise<boolean> {
  return stopProcess(pidFile);
}

export const ferretDbFiles = { pidFile, logFile };
