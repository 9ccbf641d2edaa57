import type { Logger } from '../../services/logger.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import type { DerivationFailed } from '../write/deriveDeferred.ts';

/** Logs and counts a subject whose derivation failed on its own content (a clock sweep, a rebuild's derivation). */
export function derivationFailed(deps: { metrics: ProjectorMetrics; logger: Logger }): DerivationFailed {
  return (kind, id, error) => {
    deps.metrics.derivationsFailed.inc({ kind });
    deps.logger.error({ kind, id, err: error }, 'could not derive the documents of a subject from its state; left as they were');
  };
}
