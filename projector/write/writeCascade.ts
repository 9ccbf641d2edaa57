import { writeOrder, type Flow, type SlotWrite } from './cascadeSteps.ts';
import type { DerivationEdges } from './deriveSubjects.ts';
import { revisionKeys } from './deriveSubjects.ts';
import type { Cascade } from './planCascade.ts';
import type { OwnDocs, ProjectionStore } from './projectionStore.ts';
import { stepWithinBudgets } from './withinBudgets.ts';

/** How many documents each read listing got. */
export interface Written {
  competitions: number;
  dancers: number;
  judges: number;
  coaches: number;
  clubs: number;
}

const nothingWritten = (): Written => ({ competitions: 0, dancers: 0, judges: 0, coaches: 0, clubs: 0 });

/**
 * Runs the steps of `writeOrder` one after another: each takes the flow values it declares,
 * returns its writes as data, and those are made (together) before the next step starts. A step
 * that returns a write it did not declare is a programming error and fails the batch. Ends by
 * telling the API which listings changed.
 */
export async function writeCascade(cascade: Cascade, edges: DerivationEdges): Promise<Written> {
  const flow: Partial<Flow> = { ...cascade };
  // The change feed: the resources the batch may change are recorded before any write, and
  // announced after the last one (and after the listings' versions moved), so a crash between
  // the two is announced by the clock instead of never.
  const touched = touchedBy(cascade);
  const intents = (await edges.store.intendChanges?.([...touched])) ?? [];
  // Read as a whole Flow: orderViolations (held empty by a unit test) proves that every value a
  // step reads was planned or handed on by an earlier step.
  const written = nothingWritten();
  for (const step of writeOrder) {
    const { writes, handsOn } = await step.run(flow as Flow, edges);
    const slots = writes.map((w) => w.slot);
    if (slots.length !== step.writes.length || !step.writes.every((slot) => slots.includes(slot))) {
      throw new Error(`cascade step ${step.name} declares writes [${step.writes.join(', ')}] but made [${slots.join(', ')}]`);
    }
    stepWithinBudgets(writes);
    await Promise.all(writes.map((write) => writeSlot(edges.store, write, written)));
    Object.assign(flow, handsOn);
    const discovered = [...(handsOn?.staffClubs ?? [])].map((id) => `clubs|${id}`).filter((key) => !touched.has(key));
    if (discovered.length > 0) {
      for (const key of discovered) touched.add(key);
      intents.push(...((await edges.store.intendChanges?.(discovered)) ?? []));
    }
  }
  await edges.store.signalChanged(new Set(Object.keys(written).filter((listing) => written[listing as keyof Written] > 0)));
  await edges.store.announceChanges?.([...touched], intents);
  return written;
}

/** The read documents a batch may write, as change-feed resource keys (`<listing>|<id>`). */
function touchedBy(cascade: Cascade): Set<string> {
  const keys = new Set<string>();
  for (const docs of [cascade.own.docs, cascade.swept])
    for (const listing of ['competitions', 'dancers', 'judges'] as const)
      for (const id of docs[listing].keys()) keys.add(`${listing}|${id}`);
  // A competition whose entry events alone changed its counts is written as a patch, and its counts are public.
  for (const id of cascade.own.docs.competitionCounts?.keys() ?? []) keys.add(`competitions|${id}`);
  for (const id of cascade.coaches.ids) keys.add(`coaches|${id}`);
  for (const id of cascade.clubs) keys.add(`clubs|${id}`);
  return keys;
}

/** Makes one step's write through the store, counting the read documents it wrote. */
async function writeSlot(store: ProjectionStore, write: SlotWrite, written: Written): Promise<void> {
  switch (write.slot) {
    case 'competitionEntries':
      await Promise.all([store.writeCompetitionEntries(write.entries), store.writeCategoryRecords(write.categories)]);
      return;
    case 'personLinks':
      return store.writePersonLinks(write.records);
    case 'states':
      return store.writeStates(write.states);
    case 'ownDocuments':
    case 'sweptDocuments':
      await store.writeOwnDocs(write.docs, write.stamps);
      return countOwn(write.docs, written);
    case 'dancerFacts':
      return store.writeDancerFacts(write.facts, write.stamps);
    case 'coachRevisions':
      return store.bumpRevisions(revisionKeys('coach', write.ids));
    case 'clubRevisions':
      return store.bumpRevisions(revisionKeys('club', write.ids));
    case 'staffFacts':
      return store.writeStaffFacts(write.facts);
    case 'coachDocuments':
      written.coaches += (await store.writeDerived('coaches', write.docs)).size;
      return;
    case 'clubDocuments':
      written.clubs += (await store.writeDerived('clubs', write.docs)).size;
  }
}

function countOwn(docs: OwnDocs, written: Written): void {
  written.competitions += docs.competitions.size;
  written.dancers += docs.dancers.size;
  written.judges += docs.judges.size;
}
