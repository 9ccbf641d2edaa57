/** Anything that waits in the queue: its due instant and a tie-breaker fixed when it was queued. */
export interface Queued {
  dueAt: number;
  seq: number;
}

/**
 * A binary min-heap ordered by (dueAt, seq). The sequence number makes the order total, so two
 * items due at the same instant always come out in the same order: runs are reproducible.
 */
export class TimeQueue<T extends Queued> {
  private readonly items: T[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.items.length;
  }

  push(item: T, dueAt: number): void {
    item.dueAt = dueAt;
    item.seq = this.nextSeq++;
    const items = this.items;
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = items[parent] as T;
      if (!before(item, above)) break;
      items[i] = above;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const leftItem = items[left] as T;
      const rightItem = items[right];
      const child = rightItem !== undefined && before(rightItem, leftItem) ? right : left;
      const childItem = items[child] as T;
      if (!before(childItem, last)) break;
      items[i] = childItem;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

function before(a: Queued, b: Queued): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}
