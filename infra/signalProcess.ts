import { isOurProcess, readPidFile } from './processes.ts';

/**
 * Sends `signal` (SIGKILL, SIGSTOP, SIGCONT...) to the server of a pid file, only while that
 * pid still runs our command line, so the fault tests can kill or pause a private server
 * without ever reaching somebody else's process. False when nothing of ours runs.
 */
export function signalProcess(pidFile: string, signal: NodeJS.Signals): boolean {
  const record = readPidFile(pidFile);
  if (!isOurProcess(record)) return false;
  process.kill(record.pid, signal);
  return true;
}
