import { describe, expect, it } from 'vitest';
import { ApiError } from './apiError.ts';
import { WorkGate } from './workGate.ts';

const options = { concurrency: 2, queueLength: 1, queueTimeoutMs: 50, retryAfterSeconds: 1 };

async function refusal(attempt: () => unknown): Promise<ApiError> {
  try {
    await attempt();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('WorkGate', () => {
  it('gives `concurrency` slots at once, queues one more, and refuses past the queue with 503 and Retry-After', async () => {
    const gate = new WorkGate(options);
    const first = gate.acquire();
    const second = gate.acquire();
    expect(typeof first).toBe('function');
    expect(typeof second).toBe('function');
    const queued = gate.acquire();
    expect(queued).toBeInstanceOf(Promise);
    expect(gate.queued).toBe(1);
    const refused = await refusal(() => gate.acquire());
    expect(refused.status).toBe(503);
    expect(refused.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.headers['Retry-After']).toBe('1');
    (first as () => void)();
    const granted = await queued;
    expect(gate.active).toBe(2);
    expect(gate.queued).toBe(0);
    granted();
    granted();
    (second as () => void)();
    expect(gate.active).toBe(0);
    expect(gate.refused).toBe(1);
  });

  it('refuses a request that waited past the queue timeout and forgets it', async () => {
    const gate = new WorkGate({ ...options, concurrency: 1 });
    const held = gate.acquire() as () => void;
    const refused = await refusal(() => gate.acquire());
    expect(refused.status).toBe(503);
    expect(gate.queued).toBe(0);
    held();
    expect(gate.active).toBe(0);
    expect(typeof gate.acquire()).toBe('function');
  });
});
