import { describe, expect, it } from 'vitest';
import { abandonedTransactionGoneWithinMs } from './transactionLifetime.ts';

describe('abandonedTransactionGoneWithinMs', () => {
  it('is the later of MongoDB half-limit sweeps and SecantusDB one-second idle sweeps', () => {
    expect(abandonedTransactionGoneWithinMs(60)).toBe(90_000);
    expect(abandonedTransactionGoneWithinMs(3)).toBe(4_500);
    expect(abandonedTransactionGoneWithinMs(1)).toBe(2_000);
  });

  it('keeps the local servers limit (3 s) inside the default Kafka session (6 s) and the default limit out of it', () => {
    expect(abandonedTransactionGoneWithinMs(3)).toBeLessThanOrEqual(6_000);
    expect(abandonedTransactionGoneWithinMs(4)).toBeLessThanOrEqual(6_000);
    expect(abandonedTransactionGoneWithinMs(5)).toBeGreaterThan(6_000);
    expect(abandonedTransactionGoneWithinMs(60)).toBeGreaterThan(6_000);
  });
});
