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
  /** Slots one client may hold at once (default: all of them). */
  readonly perClientSlots?: number;
  /** Requests one client may have waiting (default: the whole queue). */
  readonly perClientQueue?: number;
  /** Told of every refusal and every wait that ended in a slot (metrics). */
  readonly observer?: WorkGateObserver;
}

/** Why a request was refused a slot. */
export type WorkRefusal = 'queue_full' | 'client_queue_full' | 'timeout';

export interface WorkGateObserver {
  refused(reason: WorkRefusal): void;
  /** A queued request got a slot after `ms`. */
  waited(ms: number): void;
}

/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

interface Waiter {
  readonly client: string;
  readonly queuedAt: number;
  grant: (release: ReleaseSlot) => void;
  timer: NodeJS.Timeout;
}

interface Client {
  active: number;
  readonly waiting: Waiter[];
}

/**
 * A bound on the uncached work of one instance (decisions.md, "Hostile input": answers), shared
 * fairly among clients. Past `concurrency` a request waits in a queue of `queueLength`; a full
 * queue, or a wait past `queueTimeoutMs`, answers 503 SERVICE_UNAVAILABLE with `Retry-After`
 * through the one error path. One client (the rate limit's key) holds at most `perClientSlots`
 * slots and has at most `perClientQueue` requests waiting, and a freed slot goes to the clients
 * with a request waiting in turn (round robin), not to the longest queue: a client flooding the
 * instance with expensive misses waits behind itself and is refused first, while another
 * client's request waits at most for one slot to free. So a flood costs the instance at most
 * `concurrency` answers in memory and in the database at a time, and every other request (cache
 * hits, 304s, other clients' misses) is still answered.
 */
export class WorkGate {
  readonly #options: WorkGateOptions;
  readonly #perClientSlots: number;
  readonly #perClientQueue: number;
  /** Clients holding a slot or waiting for one, in the order they take turns. */
  readonly #clients = new Map<string, Client>();
  #active = 0;
  #queued = 0;
  #refused = 0;

  constructor(options: WorkGateOptions) {
    for (const name of ['concurrency', 'queueLength', 'queueTimeoutMs', 'retryAfterSeconds', 'perClientSlots', 'perClientQueue'] as const) {
      const value = options[name];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || value < (name === 'concurrency' || name === 'perClientSlots' ? 1 : 0))
        throw new RangeError(`${name} must be a non-negative integer`);
    }
    this.#options = options;
    this.#perClientSlots = Math.min(options.perClientSlots ?? options.concurrency, options.concurrency);
    this.#perClientQueue = Math.min(options.perClientQueue ?? options.queueLength, options.queueLength);
  }

  /** Slots in use. */
  get active(): number {
    return this.#active;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.#queued;
  }

  /** Requests refused so far (queue full or wait too long). */
  get refused(): number {
    return this.#refused;
  }

  /**
   * A slot for `client` now, or once one is given back and it is the client's turn; throws the
   * 503 ApiError when the queue (or the client's share of it) is full or the wait too long.
   */
  acquire(client = ''): ReleaseSlot | Promise<ReleaseSlot> {
    let entry = this.#clients.get(client);
    if (this.#active < this.#options.concurrency && (entry?.active ?? 0) < this.#perClientSlots && (entry?.waiting.length ?? 0) === 0) {
      if (!entry) this.#clients.set(client, (entry = { active: 0, waiting: [] }));
      this.#active += 1;
      entry.active += 1;
      return this.#releaser(client, entry);
    }
    if (this.#queued >= this.#options.queueLength) throw this.#refuse('queue_full');
    if ((entry?.waiting.length ?? 0) >= this.#perClientQueue) throw this.#refuse('client_queue_full');
    if (!entry) this.#clients.set(client, (entry = { active: 0, waiting: [] }));
    const queue = entry.waiting;
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = {
        client,
        queuedAt: performance.now(),
        grant: resolve,
        timer: setTimeout(() => {
          const at = queue.indexOf(waiter);
          if (at >= 0) {
            queue.splice(at, 1);
            this.#queued -= 1;
            this.#forgetIfIdle(client);
          }
          reject(this.#refuse('timeout'));
        }, this.#options.queueTimeoutMs),
      };
      queue.push(waiter);
      this.#queued += 1;
    });
  }

  #releaser(client: string, entry: Client): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.active -= 1;
      this.#active -= 1;
      // Move the client to the back of the turn order, then hand the slot to the first client in turn that may take it.
      this.#clients.delete(client);
      if (entry.active > 0 || entry.waiting.length > 0) this.#clients.set(client, entry);
      this.#grantNext();
    };
  }

  #grantNext(): void {
    if (this.#active >= this.#options.concurrency) return;
    for (const [client, entry] of this.#clients) {
      const next = entry.active < this.#perClientSlots ? entry.waiting.shift() : undefined;
      if (!next) continue;
      clearTimeout(next.timer);
      this.#queued -= 1;
      this.#active += 1;
      entry.active += 1;
      // Its turn is taken: it goes to the back of the order.
      this.#clients.delete(client);
      this.#clients.set(client, entry);
      this.#options.observer?.waited(performance.now() - next.queuedAt);
      next.grant(this.#releaser(client, entry));
      return;
    }
  }

  #forgetIfIdle(client: string): void {
    const entry = this.#clients.get(client);
    if (entry && entry.active === 0 && entry.waiting.length === 0) this.#clients.delete(client);
  }

  #refuse(reason: WorkRefusal): ApiError {
    this.#refused += 1;
    this.#options.observer?.refused(reason);
    return new ApiError('SERVICE_UNAVAILABLE', 'The API is answering as many requests as it can; retry later.', {
      headers: { 'Retry-After': String(this.#options.retryAfterSeconds) },
    });
  }
}
