import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import { ApiError } from '../http/index.ts';
import type { ReadModelView } from '../readModelSource.ts';

/**
 * The layout of the generation a listing reads; a generation of a format this code does not
 * serve (older than the one before its own, or newer) is answered as the read model unavailable,
 * as readiness says too, until the upgrade has switched or newer instances take over.
 */
export function servedLayout(view: ReadModelView): ReadModelLayout {
  if (view.layout) return view.layout;
  throw new ApiError('SERVICE_UNAVAILABLE', 'The read model is temporarily unavailable; retry later.', { headers: { 'Retry-After': '5' } });
}
