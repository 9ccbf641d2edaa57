import { collectionFamily, type PlannedCommand } from './commandShape.ts';

/** A plan stage a statement may have, and why that is right. The only place such a stage is allowed. */
export interface PlanExemption {
  readonly stage: 'COLLSCAN' | 'SORT';
  readonly matches: (command: PlannedCommand) => boolean;
  readonly reason: string;
}

const filterOf = (command: PlannedCommand): unknown => command.explain.filter;
const isEmpty = (value: unknown): boolean => typeof value === 'object' && value !== null && Object.keys(value).length === 0;

/**
 * Exemptions from "no collection scan, no in-memory sort where an index should sort". Each one
 * must match a statement the workload sends (an exemption nothing needs fails the test too).
 */
export const PLAN_EXEMPTIONS: readonly PlanExemption[] = [
  {
    stage: 'COLLSCAN',
    matches: (c) =>
      c.name === 'find' &&
      ['competitions', 'dancers', 'clubs'].includes(collectionFamily(c.collection)) &&
      isEmpty(filterOf(c)) &&
      c.explain.limit === 1,
    reason: 'the bootstrap asks whether a live collection holds any document at all (findOne({})): a scan that stops at the first document',
  },
  {
    stage: 'SORT',
    matches: (c) => c.name === 'find' && c.explain.hint === 'api_search',
    reason:
      "search leads one index of its own ({q.tokens, base, _id}) and the database sorts its matches (a top-k sort: memory holds one page): sort-serving copies per sort and order of a multikey index of every 2- and 3-gram cost 93 % of the competitions' index build and of each write, and the page's count walks every match anyway (services/readModel/listingFilters.ts)",
  },
];
