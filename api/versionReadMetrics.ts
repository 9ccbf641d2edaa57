import { Counter, type Registry } from 'prom-client';
import type { ReadModelSource } from './readModelSource.ts';

/**
 * The read-model version reads of the cache's freshness rule on the operators' port: reads
 * started, and requests that had to wait for one. A cache hit is meant never to wait while
 * requests keep coming; a rising count of waits under steady load says the version reads take
 * longer than the 50 ms bound allows (a slow database, or an instance past its CPU).
 */
export function versionReadMetrics(registry: Registry, source: ReadModelSource): void {
  const registers = [registry];
  const counted = (name: string, help: string, read: () => number): void => {
    let reported = 0;
    new Counter({
      name,
      help,
      registers,
      collect() {
        const now = read();
        this.inc(now - reported);
        reported = now;
      },
    });
  };
  counted(
    'api_version_reads_total',
    'Reads of the read-model version (meta document) for the cache freshness rule',
    () => source.versionReads,
  );
  counted('api_version_read_waits_total', 'Requests that waited for a read-model version read', () => source.versionWaits);
}
