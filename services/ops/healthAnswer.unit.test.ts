import { describe, expect, it } from 'vitest';
import { healthAnswer } from './healthAnswer.ts';

describe('healthAnswer', () => {
  it('answers liveness without the check, readiness from it, and nothing on other paths', async () => {
    let checks = 0;
    const readiness = (ready: boolean) => () => {
      checks += 1;
      return Promise.resolve({ ready, checks: { mongo: ready } });
    };
    expect(await healthAnswer('/health/live', readiness(false))).toEqual({ status: 200, body: { status: 'live' } });
    expect(checks).toBe(0);
    expect(await healthAnswer('/health/ready', readiness(true))).toEqual({
      status: 200,
      body: { status: 'ready', checks: { mongo: true } },
    });
    expect(await healthAnswer('/health/ready', readiness(false))).toEqual({
      status: 503,
      body: { status: 'not ready', checks: { mongo: false } },
    });
    expect(healthAnswer('/health', readiness(true))).toBeUndefined();
    expect(healthAnswer('/health/ready/', readiness(true))).toBeUndefined();
  });
});
