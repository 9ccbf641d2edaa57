/** Waits between restarts: firstMs, doubling up to maxMs, back to firstMs once a member has joined its group. */
export function restartBackoff(firstMs = 1_000, maxMs = 30_000): { next(): number; succeeded(): void } {
  let attempt = 0;
  return {
    next: () => Math.min(maxMs, firstMs * 2 ** attempt++),
    succeeded: () => void (attempt = 0),
  };
}
