import type { Document } from 'mongodb';

// What `explain` (verbosity queryPlanner) says the database will do: the stages of the winning
// plan, outermost first, and the indexes it walks. Read from MongoDB's shapes: a find's
// `queryPlanner.winningPlan`, an aggregate's `stages[0].$cursor.queryPlanner` followed by its
// other stages (or, with the slot-based engine, a top-level `queryPlanner` whose winning plan
// nests the tree under `queryPlan`).

export interface PlanSummary {
  /** Stage names, outermost first (`FETCH`, `IXSCAN`, `$group`). */
  readonly stages: string[];
  /** Index names the plan walks, in stage order. */
  readonly indexes: string[];
}

function walk(node: Document | undefined, into: PlanSummary): void {
  if (!node) return;
  if (typeof node.stage === 'string') into.stages.push(node.stage);
  if (typeof node.indexName === 'string') into.indexes.push(node.indexName);
  walk(node.inputStage as Document | undefined, into);
  for (const child of (node.inputStages as Document[] | undefined) ?? []) walk(child, into);
  walk(node.thenStage as Document | undefined, into);
  walk(node.elseStage as Document | undefined, into);
  walk(node.outerStage as Document | undefined, into);
  walk(node.innerStage as Document | undefined, into);
}

function walkPlanner(queryPlanner: Document | undefined, into: PlanSummary): void {
  const winning = queryPlanner?.winningPlan as Document | undefined;
  walk((winning?.queryPlan as Document | undefined) ?? winning, into);
}

/** The winning plan of an `explain` reply; throws when the reply holds none (an unknown reply shape must not pass). */
export function summarizePlan(reply: Document): PlanSummary {
  const summary: PlanSummary = { stages: [], indexes: [] };
  if (reply.queryPlanner) walkPlanner(reply.queryPlanner as Document, summary);
  for (const stage of (reply.stages as Document[] | undefined) ?? []) {
    const [name] = Object.keys(stage);
    if (name === '$cursor') walkPlanner((stage.$cursor as Document).queryPlanner as Document, summary);
    else if (name) summary.stages.push(name);
  }
  if (summary.stages.length === 0) throw new Error(`explain reply without a winning plan: ${JSON.stringify(reply).slice(0, 500)}`);
  return summary;
}

/** Stages that read every document of the collection. */
export const SCAN_STAGES = new Set(['COLLSCAN']);
/** Stages that sort in memory (`SORT_MERGE` merges walks already in order, so it is not one). */
export const BLOCKING_SORT_STAGES = new Set(['SORT', '$sort']);
