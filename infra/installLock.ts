import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `install` under a lock file, so two processes that find a tool missing at once (a test run
 * beside `npm start`, two test runs) build it once: the second waits for the first instead of
 * wiping its staging folder mid-build. A lock whose holder is gone (a killed build) is taken over.
 * `installed` is asked again once the lock is ours, since the holder we waited for may have
 * finished the work.
 */
export async function withInstallLock(lockFile: string, installed: () => boolean, install: () => Promise<void>): Promise<void> {
  mkdirSync(dirname(lockFile), { recursive: true });
  for (;;) {
    if (installed()) return;
    let fd: number;
    try {
      fd = openSync(lockFile, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!holderAlive(lockFile)) rmSync(lockFile, { force: true });
      else await sleep(2000);
      continue;
    }
    writeSync(fd, String(process.pid));
    closeSync(fd);
    try {
      if (!installed()) await install();
    } finally {
      rmSync(lockFile, { force: true });
    }
    return;
  }
}

function holderAlive(lockFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lockFile, 'utf8'));
  } catch {
    // Created but not yet written: its holder is alive.
    return true;
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
