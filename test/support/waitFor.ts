import { setTimeout as sleep } from 'node:timers/promises';

/** Polls until the check passes (returns its value) or the time is up (throws its last error). */
export async function waitFor<T>(check: () => Promise<T>, timeoutMs = 60_000, everyMs = 300): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
    }
    await sleep(everyMs);
  }
  throw lastError instanceof Error ? lastError : new Error(`waitFor timed out: ${String(lastError)}`);
}
