import { getHeapStatistics } from 'node:v8';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/** A registry per process (not prom-client's global one) so tests can build several apps. */
export function createRegistry(service: string, withDefaults = true): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withDefaults) {
    collectDefaultMetrics({ register: registry });
    // The default metrics give the heap's use but not its cap (--max-old-space-size, which every
    // projector launch sets: projector/memoryBound.ts); an alert needs both to say "near the cap".
    new Gauge({
      name: 'nodejs_heap_size_limit_bytes',
      help: 'Largest heap V8 grows to before the process fails with "heap out of memory" (--max-old-space-size plus the young generation)',
      registers: [registry],
      collect() {
        this.set(getHeapStatistics().heap_size_limit);
      },
    });
  }
  return registry;
}
