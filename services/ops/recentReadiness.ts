import type { ReadinessCheck } from './startOpsServer.ts';

type Readiness = Awaited<ReturnType<ReadinessCheck>>;

export interface RecentReadinessOptions {
  /** How old an answer may be when it is served again; default 1,000 ms (decisions.md, "Hostile input"). */
  readonly maxAgeMs?: number;
  /** A check that has not answered by then counts as "not ready"; default 3,000 ms. */
  readonly timeoutMs?: number;
  /** Milliseconds; default `Date.now`. */
  readonly clock?: () => number;
}

const NOT_READY: Readiness = { ready: false, checks: {} };

/** Checks that are already recent, so wrapping one again (the app and the ops port share one) does not age its answers twice. */
const recentChecks = new WeakSet<ReadinessCheck>();

/**
 * The readiness check as probes may call it: an answer at most `maxAgeMs` old is served again,
 * and callers that arrive while a check runs wait for that one. However many probes, on
 * however many ports, the database sees at most one check per `maxAgeMs` (and one more per
 * `timeoutMs` while it hangs): a public /health/ready cannot be turned into a load on it.
 * A check that throws or passes its deadline answers "not ready" and is remembered like any other.
 */
export function recentReadiness(check: ReadinessCheck, options: RecentReadinessOptions = {}): ReadinessCheck {
  if (recentChecks.has(check)) return check;
  const maxAgeMs = options.maxAgeMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 3000;
  const clock = options.clock ?? Date.now;
  let last: { atMs: number; answer: Readiness } | undefined;
  let running: Promise<Readiness> | undefined;

  const recent: ReadinessCheck = () => {
    if (last && clock() - last.atMs < maxAgeMs) return Promise.resolve(last.answer);
    running ??= withDeadline(check, timeoutMs).then((answer) => {
      last = { atMs: clock(), answer };
      running = undefined;
      return answer;
    });
    return running;
  };
  recentChecks.add(recent);
  return recent;
}

function withDeadline(check: ReadinessCheck, ms: number): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve(NOT_READY), ms);
  });
  const answer = Promise.resolve()
    .then(check)
    .catch(() => NOT_READY);
  return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
}
