import { Gauge, type Registry } from 'prom-client';

/**
 * `health_ready`: the readiness check run at scrape time, so an alert sees an instance that is
 * not ready whatever its traffic (the error-rate alerts need requests to fire; a load balancer's
 * probe leaves no trace in Prometheus). `check` answers false on its own deadline.
 */
export function readinessGauge(registry: Registry, check: () => Promise<boolean>): Gauge {
  return new Gauge({
    name: 'health_ready',
    help: '1 when /health/ready answers 200 (checked at scrape time), 0 otherwise',
    registers: [registry],
    async collect() {
      this.set((await check()) ? 1 : 0);
    },
  });
}
