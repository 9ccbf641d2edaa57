import { LISTING_PLANS } from '../../services/readModel/indexPlan.ts';
import { collectionFamily, type PlannedCommand } from './commandShape.ts';

/** The indexes of leading filters declared unsorted, in every served format: `api_<filter>`, as planFor names them. */
const UNSORTED_INDEXES = new Set(
  Object.values(LISTING_PLANS).flatMap((plans) =>
    Object.values(plans).flatMap((plan) => plan.leading.filter((l) => !l.sorted).map((l) => `api_${l.indexedAs}`)),
  ),
);

/** A plan stage a statement may have, and why that is right. The only place such a stage is allowed. */
export interface PlanExemption {
  readonly stage: 'COLLSCAN' | 'SORT';
  readonly matches: (command: PlannedCommand) => boolean;
  readonly reason: string;
}

const READ_LISTINGS: readonly string[] = ['competitions', 'dancers', 'coaches', 'judges', 'clubs'];
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
      c.name === 'find' && READ_LISTINGS.includes(collectionFamily(c.collection)) && isEmpty(filterOf(c)) && c.explain.limit === 1,
    reason:
      'the bootstrap asks whether a live collection holds any document at all (findOne({})), and so does ensureMeta before it records that the tallies of a new model hold: a scan that stops at the first document',
  },
  {
    stage: 'COLLSCAN',
    matches: (c) =>
      c.name === 'find' && READ_LISTINGS.includes(collectionFamily(c.collection)) && isEmpty(filterOf(c)) && c.explain.limit === undefined,
    reason:
      'a rebuild counts the facets of every document of its generation once, before the switch (projector/rebuild/countTallies.ts): one read of each collection instead of a transaction around every bulk of the replay',
  },
  {
    stage: 'SORT',
    matches: (c) => c.name === 'find' && UNSORTED_INDEXES.has(String(c.explain.hint)),
    reason:
      "a filter that leads one index of its own ({path, base, _id}) has its matches sorted by the database (services/readModel/listingFilters.ts): search, whose sort-serving copies of a multikey index of every 2- and 3-gram cost 93 % of the competitions' index build and of each write, with a top-k sort holding one page; and a club's or coach's roster (open links only), a few dozen people",
  },
];
