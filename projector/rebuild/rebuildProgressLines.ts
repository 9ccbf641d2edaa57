import { describeProgress } from '../bootstrap/describeProgress.ts';

export interface RebuildProgressLines {
  /** The replay moved on: `applied` of `total` events of the topic. */
  replayed(applied: number, total: number): void;
  /** The work after the replay moved on (rebuildReadModel's onStage phrases). */
  stage(what: string): void;
  stop(): void;
}

/**
 * The lines a person reads while `npm run rebuild` works: during the replay how far, how fast and
 * how long still, at most every `everyMs`; after it each stage as it begins (deriving the
 * documents, building the indexes, the clock and the tallies, the switch), and while one lasts a
 * line every `stillEveryMs` with the time spent so far. A line identical to the one before is
 * never written again.
 */
export function rebuildProgressLines(opts: {
  write: (line: string) => void;
  everyMs?: number;
  stillEveryMs?: number;
  now?: () => number;
}): RebuildProgressLines {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  let last = '';
  let lastReplayLine = Number.NEGATIVE_INFINITY;
  let still: NodeJS.Timeout | undefined;
  const say = (line: string): void => {
    if (line === last) return;
    last = line;
    opts.write(line);
  };
  const soFar = (): string => `${Math.round((now() - started) / 1000).toLocaleString('en')} s so far`;
  return {
    replayed(applied, total) {
      const at = now();
      if (at - lastReplayLine < (opts.everyMs ?? 5_000) && applied < total) return;
      lastReplayLine = at;
      say(`replaying the events topic: ${describeProgress(applied, total, at - started)}`);
    },
    stage(what) {
      clearInterval(still);
      say(`${what} (${soFar()})`);
      still = setInterval(() => say(`${what} (${soFar()})`), opts.stillEveryMs ?? 30_000);
      still.unref();
    },
    stop() {
      clearInterval(still);
    },
  };
}
