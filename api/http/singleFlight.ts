/**
 * At most one computation per key at a time: while one caller computes a missing entry,
 * callers of the same key wait for its result instead of repeating the work (a popular cache
 * key expiring under load would otherwise send every concurrent caller to the database).
 */
export class SingleFlight<T> {
  readonly #inFlight = new Map<string, Promise<T | null>>();

  /** The running computation of `key`, if any; it resolves to null when that computation failed or produced nothing. */
  pending(key: string): Promise<T | null> | undefined {
    return this.#inFlight.get(key);
  }

  /**
   * Runs `compute` as the flight of `key`. Claim only after `pending(key)` said none runs, with
   * no `await` in between, or two flights of one key can start.
   */
  async run(key: string, compute: () => Promise<T | null>): Promise<T | null> {
    let settle: (value: T | null) => void = () => undefined;
    this.#inFlight.set(key, new Promise((resolve) => (settle = resolve)));
    let result: T | null = null;
    try {
      result = await compute();
      return result;
    } finally {
      this.#inFlight.delete(key);
      settle(result);
    }
  }
}
