import { describe, expect, it } from 'vitest';
import { summarizePlan } from './winningPlan.ts';

const ixscan = (indexName: string) => ({ stage: 'IXSCAN', indexName, keyPattern: {} });

describe('summarizePlan', () => {
  it('reads a find: stages outermost first, the indexes walked, merged walks included', () => {
    const reply = {
      queryPlanner: {
        winningPlan: {
          stage: 'LIMIT',
          inputStage: { stage: 'FETCH', inputStage: { stage: 'SORT_MERGE', inputStages: [ixscan('a'), ixscan('a')] } },
        },
        rejectedPlans: [{ stage: 'COLLSCAN' }],
      },
    };
    expect(summarizePlan(reply)).toEqual({ stages: ['LIMIT', 'FETCH', 'SORT_MERGE', 'IXSCAN', 'IXSCAN'], indexes: ['a', 'a'] });
  });

  it('reads an aggregate: the $cursor plan, then the pipeline stages after it', () => {
    const reply = { stages: [{ $cursor: { queryPlanner: { winningPlan: { stage: 'COLLSCAN' } } } }, { $group: {} }, { $sort: {} }] };
    expect(summarizePlan(reply)).toEqual({ stages: ['COLLSCAN', '$group', '$sort'], indexes: [] });
  });

  it('reads the slot-based engine’s shape (the tree under winningPlan.queryPlan)', () => {
    const reply = {
      queryPlanner: {
        winningPlan: { queryPlan: { stage: 'GROUP', inputStage: { stage: 'SORT', inputStage: ixscan('b') } }, slotBasedPlan: {} },
      },
    };
    expect(summarizePlan(reply)).toEqual({ stages: ['GROUP', 'SORT', 'IXSCAN'], indexes: ['b'] });
  });

  it('refuses a reply without a winning plan rather than passing it', () => {
    expect(() => summarizePlan({ ok: 1 })).toThrow(/without a winning plan/);
  });
});
