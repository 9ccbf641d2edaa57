import { collectDefaultMetrics, Registry } from 'prom-client';

/** A registry per process (not prom-client's global one) so tests can build several apps. */
export function createRegistry(service: string, withDefaults = true): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withDefaults) collectDefaultMetrics({ register: registry });
  return registry;
}
