import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { META_COLLECTION, collectionName, readBuild, readMeta } from '../../services/mongo/index.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { projectorProcessEnv } from '../support/projectorProcessEnv.ts';
import { waitFor } from '../support/waitFor.ts';

// The real projector/main.ts, stopped (SIGTERM) while it fills an empty read model from a long
// event log, as Ctrl-C does during `npm start`'s first projection: it must end at once and give
// its claim back, so that the next start fills the read model the fast way again instead of
// projecting the whole log through the live consumer.

const config = { zone: 'UTC', bufferPeriodDays: 30 };
const history = [...createHistory({ seed: 11, events: 20_000, now: new Date() })];
const entry = fileURLToPath(new URL('../../projector/main.ts', import.meta.url));
const PROGRESS = '› projecting the event log into an empty read model';

interface Run {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves at the first stderr line starting with `prefix`. */
  line(prefix: string): Promise<string>;
}

describe('a projector stopped during its first projection of a long event log', () => {
  let h: Harness;
  const runs: Run[] = [];

  beforeAll(async () => {
    h = await createHarness({ partitions: 2, config });
    await h.produce(history);
  }, 120_000);
  afterAll(async () => {
    for (const run of runs) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await h?.close();
  });

  async function start(): Promise<Run> {
    const child = spawn(process.execPath, [entry], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: await projectorProcessEnv(h, { PROJECTOR_BOOTSTRAP_MIN_EVENTS: '1000', LOG_LEVEL: 'info' }),
    });
    const lines: string[] = [];
    // The child's log is kept for a failure's report: without it a missing switch says nothing
    // about where the projector was.
    const log: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => log.push(line));
    onTestFailed(() => {
      console.error(
        `projector run ${runs.indexOf(run) + 1}, stderr:\n${lines.join('\n')}\nlog (last 200 lines):\n${log.slice(-200).join('\n')}`,
      );
    });
    const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
    createInterface({ input: child.stderr }).on('line', (line) => {
      lines.push(line);
      for (const w of waiting.filter((w) => line.startsWith(w.prefix))) w.resolve(line);
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const run: Run = {
      child,
      exit,
      line: (prefix) =>
        new Promise<string>((resolve, reject) => {
          const seen = lines.find((l) => l.startsWith(prefix));
          if (seen !== undefined) return resolve(seen);
          waiting.push({ prefix, resolve });
          void exit.then((how) => reject(new Error(`exited (${JSON.stringify(how)}) before "${prefix}":\n${lines.join('\n')}`)));
        }),
    };
    runs.push(run);
    return run;
  }

  it('ends at once with its claim given back, and the next start fills the read model the fast way', async () => {
    const first = await start();
    await first.line(PROGRESS);
    const stopped = performance.now();
    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });
    expect(performance.now() - stopped).toBeLessThan(10_000);
    const meta = await readMeta(h.mongo.db);
    expect(meta.generation).toBe(1);
    expect(await h.mongo.db.collection(META_COLLECTION).countDocuments({ bootstrapClaimedAt: { $exists: true } })).toBe(0);
    // Nor the build claim, which the stop can find still being taken: a claim landing after the
    // stop gave it back turned the next start's bootstrap away for 60 s.
    expect(await readBuild(h.mongo.db)).toBeNull();

    const second = await start();
    expect(await second.line(PROGRESS)).toContain(`: 0 of ${history.length.toLocaleString('en')} events`);
    await waitFor(async () => expect((await readMeta(h.mongo.db)).generation).toBe(2), 120_000, 500);
    expect(await h.mongo.db.collection(collectionName('dancers', 2)).estimatedDocumentCount()).toBeGreaterThan(0);
    second.child.kill('SIGTERM');
    expect(await second.exit).toEqual({ code: 0, signal: null });
  }, 240_000);
});
