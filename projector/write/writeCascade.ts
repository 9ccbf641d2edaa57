import type { CoachDocument } from '../../services/readModel/documents.ts';
import {
  advancePerson,
  clubReadDocument,
  coachReadDocument,
  coachStaffFacts,
  deriveClubMembership,
  deriveCoachListing,
  type MemberLinkFact,
  type ProjectionConfig,
} from '../evolve/index.ts';
import { sameFact, type Cascade } from './planCascade.ts';
import type { ProjectionStore, Stamped } from './projectionStore.ts';

export interface Written {
  competitions: number;
  dancers: number;
  judges: number;
  coaches: number;
  clubs: number;
}

/** What the steps share: the plan, the edges, and what a step hands on to a later one. */
interface Work {
  cascade: Cascade;
  store: ProjectionStore;
  config: ProjectionConfig;
  now: Date;
  coachDocs: Stamped<CoachDocument | null>[];
  staffChangedClubs: string[];
  written: Written;
}

interface WriteStep {
  name: string;
  /** The one store write the step makes (empty when it has nothing to write). */
  write: 'writeOwn' | 'bumpRevisions' | 'writeStaffFacts' | 'writeDerived';
  run(work: Work): Promise<void>;
}

/**
 * A batch's writes in the order that lets a replay finish whatever a crash between two of them
 * left undone. Event batches and clock sweeps run the same steps (a sweep has no states to
 * write; an event batch no swept documents).
 *
 * - Derived subjects (coaches, clubs) are derived from what earlier steps stored, not from the
 *   batch's memory, after their revision was bumped: with two projector instances on different
 *   partitions, the derivation that read the newest revision also read every fact written
 *   before it, and older ones lose the guarded write.
 * - An event batch is replayed from the log after a crash; its members then come back as
 *   duplicates and force their subjects' derivation (see planCascade).
 * - The clock has no log: what tells it a transition is still to do is a document's nextDueAt.
 *   So the documents that carry a sweep's nextDueAt (a coach's, a swept person's) are written
 *   after everything their transition cascades into, and a sweep that dies half-way is found
 *   again by the next.
 */
export const writeOrder: readonly WriteStep[] = [
  {
    name: 'ownWrites',
    write: 'writeOwn',
    run: async ({ cascade: { own }, store, written }) => {
      await store.writeOwn(own);
      written.competitions += own.docs.competitions.size;
      written.dancers += own.docs.dancers.size;
      written.judges += own.docs.judges.size;
    },
  },
  {
    name: 'subjectRevisions',
    write: 'bumpRevisions',
    run: ({ cascade, store }) =>
      store.bumpRevisions([...revisionKeys('coach', cascade.coaches.ids), ...revisionKeys('club', cascade.clubs)]),
  },
  { name: 'staffFacts', write: 'writeStaffFacts', run: deriveCoaches },
  {
    name: 'staffRevisions',
    write: 'bumpRevisions',
    run: async ({ cascade, store, staffChangedClubs }) => {
      await store.bumpRevisions(revisionKeys('club', staffChangedClubs));
      for (const id of staffChangedClubs) cascade.clubs.add(id);
    },
  },
  { name: 'clubDocuments', write: 'writeDerived', run: deriveClubs },
  {
    name: 'coachDocuments',
    write: 'writeDerived',
    run: async ({ store, coachDocs, written }) => {
      written.coaches += (await store.writeDerived('coaches', coachDocs)).size;
    },
  },
  {
    name: 'sweptDocuments',
    write: 'writeOwn',
    run: async ({ cascade: { own, swept }, store, written }) => {
      await store.writeOwn({
        ...own,
        states: { competition: new Map(), person: new Map(), club: new Map() },
        docs: swept,
        facts: new Map(),
      });
      written.dancers += swept.dancers.size;
      written.judges += swept.judges.size;
    },
  },
];

/** Runs the steps of `writeOrder`, one after another; returns how many documents each listing got. */
export async function writeCascade(cascade: Cascade, store: ProjectionStore, config: ProjectionConfig, now: Date): Promise<Written> {
  const work: Work = {
    cascade,
    store,
    config,
    now,
    coachDocs: [],
    staffChangedClubs: [],
    written: { competitions: 0, dancers: 0, judges: 0, coaches: 0, clubs: 0 },
  };
  for (const step of writeOrder) await step.run(work);
  return work.written;
}

/**
 * Derives the coaches from their stored facts and writes their staff facts (each under the
 * coach's revision, so an older derivation never replaces a newer one's); keeps the coach
 * documents for a later step and notes the clubs whose staff facts changed.
 */
async function deriveCoaches(work: Work): Promise<void> {
  const { cascade, store, config, now } = work;
  const coachIds = [...cascade.coaches.ids];
  const staffFacts: Stamped<MemberLinkFact>[] = [];
  if (coachIds.length > 0) {
    const [inputs, states, storedStaff] = await Promise.all([
      subjectInputs(store, 'coach', coachIds),
      store.loadStates('person', coachIds),
      store.loadMemberFacts('coach', coachIds),
    ]);
    for (const id of coachIds) {
      const state = states.get(id);
      if (!state?.roles.coach) continue;
      const current = advancePerson(state, now, config.zone);
      const listing = deriveCoachListing(current, inputs.factsOf(id), now, config);
      if (!listing) continue;
      const rev = inputs.revOf(id);
      work.coachDocs.push({ id, value: coachReadDocument(current, listing), rev });
      for (const fact of coachStaffFacts(current, listing)) staffFacts.push({ id: fact._id, value: fact, rev });
    }
    const stored = new Map(storedStaff.map((f) => [f._id, f]));
    const changed = staffFacts.filter((f) => cascade.coaches.forced.has(f.value.memberId) || !sameFact(stored.get(f.id), f.value));
    work.staffChangedClubs = [...new Set(changed.map((f) => f.value.subjectId))];
  }
  await store.writeStaffFacts(staffFacts);
}

async function deriveClubs(work: Work): Promise<void> {
  const { cascade, store, config, now } = work;
  const clubIds = [...cascade.clubs];
  const docs: Stamped<ReturnType<typeof clubReadDocument>>[] = [];
  if (clubIds.length > 0) {
    const [inputs, states] = await Promise.all([subjectInputs(store, 'club', clubIds), store.loadStates('club', clubIds)]);
    for (const id of clubIds) {
      const state = states.get(id);
      if (!state) continue;
      const membership = deriveClubMembership(state, inputs.factsOf(id), now, config);
      docs.push({ id, value: clubReadDocument(state, membership), rev: inputs.revOf(id) });
    }
  }
  work.written.clubs += (await store.writeDerived('clubs', docs)).size;
}

type Subject = 'coach' | 'club';

/** The key of a subject's revision (`coach|<id>`, `club|<id>`). */
const revisionKey = (kind: Subject, id: string): string => `${kind}|${id}`;
const revisionKeys = (kind: Subject, ids: Iterable<string>): string[] => [...ids].map((id) => revisionKey(kind, id));

/**
 * What a derived subject is computed from besides its own state: every fact of it, and the
 * revision it was bumped to, which guards its write.
 */
async function subjectInputs(
  store: ProjectionStore,
  kind: Subject,
  ids: readonly string[],
): Promise<{ revOf: (id: string) => number; factsOf: (id: string) => MemberLinkFact[] }> {
  const [revs, facts] = await Promise.all([store.readRevisions(revisionKeys(kind, ids)), store.loadFacts(kind, ids)]);
  const bySubject = Map.groupBy(facts, (f) => f.subjectId);
  return { revOf: (id) => revs.get(revisionKey(kind, id)) ?? 0, factsOf: (id) => bySubject.get(id) ?? [] };
}
