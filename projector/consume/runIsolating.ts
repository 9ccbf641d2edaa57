import { isInfrastructureError } from './isInfrastructureError.ts';

/**
 * Runs `run` over the items; when it fails on their content (any error that is not the
 * database's or the broker's, which propagate to be retried), finds the failing items by halving,
 * in order, and hands each to `onFailure` instead. `run` must be idempotent: what a failed
 * attempt wrote before it threw is written again. One failing item among n costs about 2·log2(n)
 * attempts.
 */
export async function runIsolating<T, R>(
  items: readonly T[],
  run: (items: readonly T[]) => Promise<R[]>,
  onFailure: (item: T, error: unknown) => Promise<R>,
): Promise<R[]> {
  if (items.length === 0) return [];
  try {
    return await run(items);
  } catch (error) {
    if (isInfrastructureError(error)) throw error;
    if (items.length === 1) return [await onFailure(items[0]!, error)];
    const half = items.length >>> 1;
    const first = await runIsolating(items.slice(0, half), run, onFailure);
    return [...first, ...(await runIsolating(items.slice(half), run, onFailure))];
  }
}

export const describeError = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
