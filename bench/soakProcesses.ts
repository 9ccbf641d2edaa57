import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { PROJECTOR_MEMORY_FLAGS } from '../projector/memoryBound.ts';

/** A service process the soak started: the API or the projector, as `npm start` launches each. */
export interface Service {
  name: string;
  child: ChildProcess;
  exited: Promise<number | NodeJS.Signals | null>;
  /** SIGTERM, SIGKILL past the service's own 20 s grace period. */
  stop(): Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `node [flags] <entry>` with the service's environment (configured by environment only,
 * as in production), its output appended to `logFile`. `apiFlags`: Node flags for the API, which
 * `npm start` launches with none (a heap cap shows whether what it holds is bounded or garbage
 * V8 has not collected yet).
 */
export function startService(
  name: 'api' | 'projector',
  env: NodeJS.ProcessEnv,
  logFile: string,
  apiFlags: readonly string[] = [],
): Service {
  const log = openSync(logFile, 'a');
  const args = name === 'projector' ? [...PROJECTOR_MEMORY_FLAGS, 'projector/main.ts'] : [...apiFlags, 'api/main.ts'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  let done = false;
  void exited.then(() => (done = true));
  return {
    name,
    child,
    exited,
    async stop() {
      if (done) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The HTTP status of a GET, 0 when nothing answered within 5 s. */
export async function statusOf(url: string, headers: Record<string, string> = {}): Promise<number> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Resolves once `url` answers 200; rejects when the service exits first or `capMs` passes. */
export async function awaitReady(service: Service, url: string, capMs: number): Promise<void> {
  const deadline = performance.now() + capMs;
  while ((await statusOf(url)) !== 200) {
    if (service.child.exitCode !== null || service.child.signalCode !== null)
      throw new Error(`${service.name} exited while starting; see its log`);
    if (performance.now() > deadline) throw new Error(`${service.name} was not ready at ${url} within ${capMs} ms`);
    await sleep(500);
  }
}

/** A Prometheus text page, or '' when it could not be read. */
export async function metricsPage(url: string): Promise<string> {
  try {
    return await (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text();
  } catch {
    return '';
  }
}

/** Runs `node <script> <args>` to its end and parses the last line it printed as JSON. */
export function runJsonChild<T>(script: string, args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as T);
      else reject(new Error(`${script} exited with ${code}: ${out.slice(-500)}`));
    });
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux's USER_HZ is 100); NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
