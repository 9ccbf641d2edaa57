import { describe, expect, it } from 'vitest';
import { modelVerdict, topicVerdict, type SeedStamp } from './seedStamp.ts';

const expected = { topic: 'bench.api.s3.n1000', history: 'h1', format: 2 };
const stamp: SeedStamp = { topic: expected.topic, history: expected.history, published: 1012, generation: 2 };
const live = { generation: 2, format: 2 };
const finished = { events: 1012, finishedAt: new Date('2026-11-26T00:00:00Z') };

describe('topicVerdict', () => {
  it('reuses a topic holding exactly what the finished publish of this history wrote', () => {
    expect(topicVerdict(stamp, expected, 1012)).toEqual({ reuse: true });
  });

  it('publishes again when the topic is empty, unrecorded, of another history, half-published or not of the recorded size', () => {
    expect(topicVerdict(stamp, expected, 0)).toMatchObject({ reuse: false, why: expect.stringContaining('no events') });
    expect(topicVerdict(null, expected, 1012)).toMatchObject({ reuse: false, why: expect.stringContaining('fully published') });
    expect(topicVerdict({ ...stamp, topic: 'other' }, expected, 1012).reuse).toBe(false);
    expect(topicVerdict({ ...stamp, history: 'h0' }, expected, 1012)).toMatchObject({ why: expect.stringContaining('generator') });
    expect(topicVerdict({ ...stamp, published: 0 }, expected, 500)).toMatchObject({ why: expect.stringContaining('did not finish') });
    expect(topicVerdict(stamp, expected, 2024)).toMatchObject({ why: expect.stringContaining('2024') });
  });
});

describe('modelVerdict', () => {
  it('reuses the live generation of a finished seed of the same history in the same format', () => {
    expect(modelVerdict(stamp, expected, live, finished)).toEqual({ reuse: true });
  });

  it('seeds again when nothing finished, the history or the format changed, or another generation is live', () => {
    expect(modelVerdict(null, expected, { generation: 1, format: 2 }, null).reuse).toBe(false);
    expect(modelVerdict({ ...stamp, generation: null }, expected, live, finished).reuse).toBe(false);
    expect(modelVerdict({ ...stamp, history: 'h0' }, expected, live, finished)).toMatchObject({ why: expect.stringContaining('history') });
    expect(modelVerdict(stamp, expected, { generation: 2, format: 1 }, finished)).toMatchObject({
      why: expect.stringContaining('format 1'),
    });
    expect(modelVerdict(stamp, expected, { generation: 3, format: 2 }, finished)).toMatchObject({
      why: expect.stringContaining('generation 3'),
    });
  });

  it('seeds again after a rebuild that started and did not finish, or replayed another count', () => {
    expect(modelVerdict(stamp, expected, live, { events: 0, finishedAt: null })).toMatchObject({
      why: expect.stringContaining('did not finish'),
    });
    expect(modelVerdict(stamp, expected, live, null).reuse).toBe(false);
    expect(modelVerdict(stamp, expected, live, { ...finished, events: 1000 })).toMatchObject({ why: expect.stringContaining('1000') });
  });
});
