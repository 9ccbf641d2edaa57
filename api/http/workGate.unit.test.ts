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

  it('gives one client at most perClientSlots slots and leaves the others to other clients', () => {
    const gate = new WorkGate({ ...options, concurrency: 4, queueLength: 8, perClientSlots: 2 });
    const flood = [gate.acquire('flood'), gate.acquire('flood'), gate.acquire('flood')];
    expect(typeof flood[0]).toBe('function');
    expect(typeof flood[1]).toBe('function');
    // Two slots are free, but not for the flooding client.
    expect(flood[2]).toBeInstanceOf(Promise);
    expect(gate.active).toBe(2);
    expect(typeof gate.acquire('ordinary')).toBe('function');
    expect(gate.active).toBe(3);
  });

  it('hands freed slots to the waiting clients in turn, not first come first served', async () => {
    const gate = new WorkGate({ ...options, concurrency: 1, queueLength: 8, queueTimeoutMs: 1000 });
    let held = gate.acquire('flood') as () => void;
    const order: string[] = [];
    const wait = (client: string, n: number): Promise<void> =>
      (gate.acquire(client) as Promise<() => void>).then((release) => {
        order.push(`${client}${n}`);
        held = release;
      });
    const waits = [wait('flood', 1), wait('flood', 2), wait('flood', 3), wait('ordinary', 1), wait('other', 1), wait('ordinary', 2)];
    for (let i = 0; i < waits.length; i += 1) {
      held();
      await new Promise((resolve) => setImmediate(resolve));
    }
    held();
    await Promise.all(waits);
    // FIFO would have served flood1-3 before anyone else.
    expect(order).toEqual(['ordinary1', 'other1', 'flood1', 'ordinary2', 'flood2', 'flood3']);
    expect(gate.active).toBe(0);
    expect(gate.queued).toBe(0);
  });

  it('refuses a client past its share of the queue while other clients still queue, and reports why', async () => {
    const refusals: string[] = [];
    const waits: number[] = [];
    const gate = new WorkGate({
      ...options,
      concurrency: 1,
      queueLength: 4,
      queueTimeoutMs: 1000,
      perClientQueue: 2,
      observer: { refused: (reason) => refusals.push(reason), waited: (ms) => waits.push(ms) },
    });
    const held = gate.acquire('flood') as () => void;
    const queued = [gate.acquire('flood'), gate.acquire('flood')];
    const over = await refusal(() => gate.acquire('flood'));
    expect(over.status).toBe(503);
    expect(over.headers['Retry-After']).toBe('1');
    const ordinary = gate.acquire('ordinary');
    expect(ordinary).toBeInstanceOf(Promise);
    expect(gate.queued).toBe(3);
    expect(refusals).toEqual(['client_queue_full']);
    held();
    (await ordinary)();
    for (const next of queued) (await next)();
    expect(waits).toHaveLength(3);
    expect(gate.active).toBe(0);
  });
});
