import { ApiError } from './apiError.ts';

export interface WorkGateOptions {
  /** Uncached answers computed at once (database queries, serialization). */
  readonly concurrency: number;
  /** Requests that may wait for a slot; one more is refused at once. */
  readonly queueLength: number;
  /** How long a request may wait for a slot before it is refused. */
  readonly queueTimeoutMs: number;
  /** `Retry-After` of the refusal, seconds. */
  readonly retryAfterSeconds: number;
}

/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  timer: NodeJS.Timeout;
}

/**
 * A bound on the uncached work of one instance (decisions.md, "Hostile input": answers). Past
 * `concurrency` a request waits in a first-come queue of `queueLength`; a full queue, or a wait
 * past `queueTimeoutMs`, answers 503 SERVICE_UNAVAILABLE with `Retry-After` through the one error
 * path. So a flood of expensive misses costs the instance at most `concurrency` answers in memory
 * and in the database at a time, and every other request (cache hits, 304s) is still answered.
 */
export class WorkGate {
  readonly #options: WorkGateOptions;
  readonly #queue: Waiter[] = [];
  #active = 0;
  #refused = 0;

  constructor(options: WorkGateOptions) {
    for (const [name, value] of Object.entries(options)) {
      if (!Number.isInteger(value) || value < (name === 'concurrency' ? 1 : 0))
        throw new RangeError(`${name} must be a non-negative integer`);
    }
    this.#options = options;
  }

  /** Slots in use. */
  get active(): number {
    return this.#active;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Requests refused so far (queue full or wait too long). */
  get refused(): number {
    return this.#refused;
  }

  /** A slot now, or once one is given back; throws the 503 ApiError when the queue is full or the wait too long. */
  acquire(): ReleaseSlot | Promise<ReleaseSlot> {
    if (this.#active < this.#options.concurrency) {
      this.#active += 1;
      return this.#releaser();
    }
    if (this.#queue.length >= this.#options.queueLength) throw this.#refuse();
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          const at = this.#queue.indexOf(waiter);
          if (at >= 0) this.#queue.splice(at, 1);
          reject(this.#refuse());
        }, this.#options.queueTimeoutMs),
      };
      this.#queue.push(waiter);
    });
  }

  #releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) {
        clearTimeout(next.timer);
        // The slot passes straight to the first waiter: the count of active slots stays.
        next.grant(this.#releaser());
      } else {
        this.#active -= 1;
      }
    };
  }

  #refuse(): ApiError {
    this.#refused += 1;
    return new ApiError('SERVICE_UNAVAILABLE', 'The API is answering as many requests as it can; retry later.', {
      headers: { 'Retry-After': String(this.#options.retryAfterSeconds) },
    });
  }
}
