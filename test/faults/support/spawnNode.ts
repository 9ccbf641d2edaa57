import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface NodeProcess {
  child: ChildProcess;
  /** Resolves once the process has printed `n` stdout lines starting with `prefix` (since it started). */
  afterLines(prefix: string, n: number): Promise<void>;
  /** Lines printed so far that start with `prefix`. */
  count(prefix: string): number;
  /** Everything it printed (stdout and stderr), for a failure's message. */
  output(): string;
  exited: Promise<NodeJS.Signals | number | null>;
  /** SIGTERM and wait for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** Runs `node <entry> <args>` (TypeScript runs directly on Node 24) and follows its stdout lines. */
export function spawnNode(entry: string, args: string[], env: NodeJS.ProcessEnv = process.env): NodeProcess {
  const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const lines: string[] = [];
  let output = '';
  const waiters: { prefix: string; n: number; resolve: () => void }[] = [];
  const count = (prefix: string): number => lines.filter((l) => l.startsWith(prefix)).length;
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    output += `${line}\n`;
    if (line.startsWith('{')) return; // pino's log lines: kept for the output only
    lines.push(line);
    for (const w of waiters.filter((w) => count(w.prefix) >= w.n)) w.resolve();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return {
    child,
    count,
    output: () => output.slice(-20_000),
    exited,
    afterLines: (prefix, n) =>
      new Promise<void>((resolve, reject) => {
        if (count(prefix) >= n) return resolve();
        waiters.push({ prefix, n, resolve });
        void exited.then((how) =>
          reject(new Error(`${entry} ended (${String(how)}) before ${n} "${prefix}" lines:\n${output.slice(-5000)}`)),
        );
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
