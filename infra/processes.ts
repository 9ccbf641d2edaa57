import { spawn } from 'node:child_process';
import { openSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

// A server we started is remembered by a pid file holding the pid and a marker from its
// command line; stop() only signals a process whose command line still carries the marker, so a
// recycled pid never kills somebody else's process.
export interface PidRecord {
  pid: number;
  marker: string;
}

export function readPidFile(file: string): PidRecord | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PidRecord;
  } catch {
    return null;
  }
}

export function isOurProcess(record: PidRecord | null): record is PidRecord {
  if (!record) return false;
  try {
    const cmdline = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return cmdline.includes(record.marker);
  } catch {
    return false;
  }
}

export function startDetached(opts: {
  command: string;
  args: string[];
  logFile: string;
  pidFile: string;
  marker: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}): number {
  const log = openSync(opts.logFile, 'a');
  const child = spawn(opts.command, opts.args, {
    detached: true,
    stdio: ['ignore', log, log],
    env: opts.env ?? process.env,
    cwd: opts.cwd,
  });
  if (child.pid === undefined) throw new Error(`could not start ${opts.command}`);
  child.unref();
  writeFileSync(opts.pidFile, JSON.stringify({ pid: child.pid, marker: opts.marker } satisfies PidRecord));
  return child.pid;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL after the grace period. Returns false when nothing of ours ran. */
export async function stopProcess(pidFile: string, graceMs = 30_000): Promise<boolean> {
  const record = readPidFile(pidFile);
  if (!isOurProcess(record)) {
    rmSync(pidFile, { force: true });
    return false;
  }
  process.kill(record.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(record.pid) && Date.now() < deadline) await sleep(200);
  if (isAlive(record.pid)) process.kill(record.pid, 'SIGKILL');
  rmSync(pidFile, { force: true });
  return true;
}

export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  opts: { timeoutMs: number; isStillRunning: () => boolean; logFile: string },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    if (!opts.isStillRunning()) throw new Error(`${what} exited during start-up; see ${opts.logFile}`);
    await sleep(300);
  }
  throw new Error(`${what} did not answer within ${opts.timeoutMs / 1000}s; see ${opts.logFile}`);
}

export function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise(out) : reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${err || out}`)),
    );
  });
}
