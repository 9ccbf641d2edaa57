export type Counted<K> = { key: K; count: number };

/** How many times each distinct key was added (keys compared by their JSON). */
export class KeyCounts<K> {
  readonly #rows = new Map<string, Counted<K>>();

  /** Counts `key` `times` more (a tally's share may be negative); null is not counted. */
  add(key: K | null, times = 1): void {
    if (key === null) return;
    const id = JSON.stringify(key);
    const row = this.#rows.get(id);
    if (row) row.count += times;
    else this.#rows.set(id, { key, count: times });
  }

  /** The keys counted more than zero times (the shares of a tally may sum to zero). */
  rows(): Counted<K>[] {
    return [...this.#rows.values()].filter((row) => row.count > 0);
  }

  /**
   * Per `id`, the most used spelling (ties: the smaller JSON), with the summed count: one
   * country or type whatever the spellings its records carry, the same on every instance.
   */
  byId<I extends number | string>(this: KeyCounts<K & { id: I }>): Counted<K & { id: I }>[] {
    const merged = new Map<I, { best: Counted<K & { id: I }>; count: number }>();
    for (const row of this.rows()) {
      const seen = merged.get(row.key.id);
      if (!seen) merged.set(row.key.id, { best: row, count: row.count });
      else {
        seen.count += row.count;
        if (row.count > seen.best.count || (row.count === seen.best.count && JSON.stringify(row.key) < JSON.stringify(seen.best.key)))
          seen.best = row;
      }
    }
    return [...merged.values()].map(({ best, count }) => ({ key: best.key, count }));
  }
}
