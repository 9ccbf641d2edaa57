import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isOurProcess, readPidFile, startDetached, stopProcess, waitUntil } from './processes.ts';
import { signalProcess } from './signalProcess.ts';

/** How to launch a server: startDetached's command, arguments and marker. */
export interface LaunchCommand {
  command: string;
  args: string[];
  /** A string of the command line that only this instance carries (its own folder or file). */
  marker: string;
}

/** What differs between Kafka, SecantusDB and Redis; localServerInstance does the rest. */
export interface LocalServerRecipe {
  /** Its name in messages: 'Kafka', 'SecantusDB', 'Redis'. */
  name: string;
  /** Folder of its pid file, log, data folder (`data`) and whatever else it keeps. */
  runDir: string;
  /** Base name of its pid and log files in runDir ('redis': redis.pid, redis.log). */
  fileBase: string;
  /** host:port it listens on, for messages. */
  address: string;
  /** What a server already answering there is called and what to do about it, for the error. */
  foreign: { what: string; advice: string };
  answers(): Promise<boolean>;
  install(log: (line: string) => void): Promise<void>;
  /** Readies its folder after the install (the data folder exists by then) and says how to launch it. */
  prepare(dataDir: string): LaunchCommand | Promise<LaunchCommand>;
  /** How long it may take to answer after the launch. */
  startTimeoutMs: number;
  /** Runtime settings the server forgets when it stops: applied once it answers, and again to one already running. */
  configure?(): Promise<void>;
}

/** One local server with its own pid file and log, so a test can stop, kill or pause it alone. */
export interface LocalServerInstance {
  readonly files: { pidFile: string; logFile: string; dataDir: string };
  isOurs(): boolean;
  /** Installs and starts it unless ours already runs; false when it was running. */
  start(log: (line: string) => void): Promise<boolean>;
  /** SIGTERM, then SIGKILL after the grace period; false when nothing of ours ran. */
  stop(graceMs?: number): Promise<boolean>;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT...) to it; false when nothing of ours runs. */
  signal(signal: NodeJS.Signals): boolean;
}

export function localServerInstance(recipe: LocalServerRecipe): LocalServerInstance {
  const pidFile = join(recipe.runDir, `${recipe.fileBase}.pid`);
  const logFile = join(recipe.runDir, `${recipe.fileBase}.log`);
  const dataDir = join(recipe.runDir, 'data');
  const isOurs = (): boolean => isOurProcess(readPidFile(pidFile));
  return {
    files: { pidFile, logFile, dataDir },
    isOurs,
    async start(log) {
      if (isOurs()) {
        await recipe.configure?.();
        return false;
      }
      // Never start a second server on a port somebody else's server holds: ours would fail to
      // bind, and the probes would then talk to theirs.
      if (await recipe.answers()) {
        throw new Error(
          `${recipe.foreign.what} not started by this project already answers on ${recipe.address}; ${recipe.foreign.advice}`,
        );
      }
      await recipe.install(log);
      mkdirSync(dataDir, { recursive: true });
      const launch = await recipe.prepare(dataDir);
      log(`starting ${recipe.name} on ${recipe.address} (log: ${logFile})`);
      startDetached({ ...launch, logFile, pidFile });
      await waitUntil(recipe.name, () => recipe.answers(), { timeoutMs: recipe.startTimeoutMs, isStillRunning: isOurs, logFile });
      await recipe.configure?.();
      return true;
    },
    stop: (graceMs) => stopProcess(pidFile, graceMs),
    signal: (signal) => signalProcess(pidFile, signal),
  };
}
