import type { Db } from 'mongodb';

/**
 * How long after its client vanished (killed, paused, cut off) the server has aborted a
 * transaction, freeing its documents, given its `transactionLifetimeLimitSeconds`. MongoDB's
 * periodic job runs every half limit (at least once a second) and aborts the transactions older
 * than the limit: up to 1.5 limits. SecantusDB's runs every second and aborts those idle for the
 * limit: up to the limit and a second. The larger of the two.
 */
export function abandonedTransactionGoneWithinMs(limitSeconds: number): number {
  return 1000 * Math.max(1.5 * limitSeconds, limitSeconds + 1);
}

/** The server's `transactionLifetimeLimitSeconds`, or null where it will not say (a hosted server refusing getParameter). */
export async function readTransactionLifetimeLimit(db: Db): Promise<number | null> {
  try {
    const reply = await db.admin().command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 });
    const seconds = Number(reply.transactionLifetimeLimitSeconds);
    return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
  } catch {
    return null;
  }
}
