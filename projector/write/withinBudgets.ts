import { checkBudget, type DocumentKind } from '../../services/readModel/documentBudgets.ts';
import type { SlotWrite } from './cascadeSteps.ts';

/**
 * Documents found within their budget, so that a write the cascade checked before its step
 * (stepWithinBudgets) is not measured again by the store. Only objects built for one write are
 * passed (folded states, derived documents): none is changed between the check and its write.
 */
const checked = new WeakSet<object>();

/**
 * Checks, before a write sends anything, that each document (nulls are deletions) is within the
 * budget of its kind (services/readModel/documentBudgets.ts); throws DocumentOverBudget, a
 * content error, for the first that is not, so the event that grew it is dead-lettered and the
 * stored documents stay as they were.
 */
export function withinBudgets(kind: DocumentKind, collection: string, docs: Iterable<object | null>): void {
  for (const doc of docs) {
    if (doc === null || checked.has(doc)) continue;
    checkBudget(kind, collection, [doc]);
    checked.add(doc);
  }
}

/**
 * Checks every document of one cascade step before any of its writes starts: the writes of a
 * step run together, and a state refused while its document (or the other way round) was
 * already being written would leave the two apart.
 */
export function stepWithinBudgets(writes: readonly SlotWrite[]): void {
  for (const write of writes) {
    switch (write.slot) {
      case 'states':
        for (const kind of ['competition', 'person', 'club'] as const)
          withinBudgets('state', `${kind}_states`, write.states[kind].values());
        break;
      case 'ownDocuments':
      case 'sweptDocuments':
        for (const listing of ['competitions', 'dancers', 'judges'] as const) withinBudgets('read', listing, write.docs[listing].values());
        break;
      case 'dancerFacts':
        withinBudgets('fact', 'member_links', write.facts.values());
        break;
      case 'staffFacts':
        withinBudgets(
          'fact',
          'member_links',
          write.facts.map((f) => f.value),
        );
        break;
      case 'coachDocuments':
      case 'clubDocuments':
        withinBudgets(
          'read',
          write.slot === 'coachDocuments' ? 'coaches' : 'clubs',
          write.docs.map((d) => d.value),
        );
        break;
      case 'competitionEntries':
        // One entry's categories and its previous ones: two events' worth, like a state.
        withinBudgets('state', 'competition_entries', write.entries);
        break;
      case 'personLinks':
        // One link's periods with one subject, and the periods before: a state's budget.
        withinBudgets('state', 'person_links', write.records);
        break;
      case 'coachRevisions':
      case 'clubRevisions':
        break;
    }
  }
}
