import type { ProjectionStore } from '../projector/write/projectionStore.ts';

/** Item count of a store call: ids or keys loaded, documents or facts written. */
function itemsOf(args: unknown[]): number {
  let n = 0;
  for (const arg of args) {
    if (Array.isArray(arg)) n += arg.length;
    else if (arg instanceof Map || arg instanceof Set) n += arg.size;
    else if (arg && typeof arg === 'object') for (const value of Object.values(arg)) n += itemsOf([value]);
  }
  return n;
}

/** Wraps a store so each method's calls, items and wall time add up in `timings` (bench profiling only). */
export function timedStore(store: ProjectionStore, timings: Map<string, { calls: number; ms: number; items: number }>): ProjectionStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          const t = timings.get(name) ?? { calls: 0, ms: 0, items: 0 };
          t.calls += 1;
          t.ms += performance.now() - started;
          t.items += itemsOf(args);
          timings.set(name, t);
        }
      };
    },
  });
}
