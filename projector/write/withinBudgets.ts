import { checkBudget, type DocumentKind } from '../../services/readModel/documentBudgets.ts';

/**
 * Checks, before a write sends anything, that each document (nulls are deletions) is within the
 * budget of its kind (services/readModel/documentBudgets.ts); throws DocumentOverBudget, a
 * content error, for the first that is not, so the event that grew it is dead-lettered and the
 * stored documents stay as they were.
 */
export function withinBudgets(kind: DocumentKind, collection: string, docs: Iterable<object | null>): void {
  checkBudget(kind, collection, nonNull(docs));
}

function* nonNull(docs: Iterable<object | null>): Iterable<object> {
  for (const doc of docs) if (doc !== null) yield doc;
}
