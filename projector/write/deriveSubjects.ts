import type { ClubDocument, CoachDocument } from '../../services/readModel/documents.ts';
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
import { putLinksOf } from './personLinkRecords.ts';
import { sameFact } from './planCascade.ts';
import type { ProjectionStore, Stamped } from './projectionStore.ts';
import { subjectsReachedBy } from './subjectsReachedBy.ts';

/** What a derivation reads besides the subjects it is told to derive. */
export interface DerivationEdges {
  store: ProjectionStore;
  config: ProjectionConfig;
  now: Date;
}

export interface DerivedCoaches {
  /** Their documents, each stamped with the coach's revision. */
  coachDocs: Stamped<CoachDocument | null>[];
  /** Their staff facts, under the same revision (an older derivation never replaces a newer one's). */
  staffFacts: Stamped<MemberLinkFact>[];
  /** The clubs whose staff facts changed (all of a forced coach's count as changed). */
  staffClubs: ReadonlySet<string>;
}

/** Derives coaches from their stored state, the dancers' facts about them and their revision. */
export async function deriveCoaches(
  coaches: { ids: ReadonlySet<string>; forced: ReadonlySet<string> },
  { store, config, now }: DerivationEdges,
): Promise<DerivedCoaches> {
  const ids = [...coaches.ids];
  if (ids.length === 0) return { coachDocs: [], staffFacts: [], staffClubs: new Set() };
  const [inputs, states, storedStaff, staffLinks] = await Promise.all([
    subjectInputs(store, 'coach', ids),
    store.loadStates('person', ids),
    store.loadMemberFacts('coach', ids),
    // A coach's staff facts and its document's clubs come from every staff link it has had.
    store.findPersonLinks({ personIds: ids, role: 'coach' }),
  ]);
  const linksOf = Map.groupBy(staffLinks, (record) => record.personId);
  const coachDocs: Stamped<CoachDocument | null>[] = [];
  const staffFacts: Stamped<MemberLinkFact>[] = [];
  for (const id of ids) {
    const state = states.get(id);
    if (!state?.roles.coach) continue;
    putLinksOf(state, linksOf.get(id) ?? []);
    const current = advancePerson(state, now, config.zone);
    const listing = deriveCoachListing(current, inputs.factsOf(id), now, config);
    if (!listing) continue;
    const rev = inputs.revOf(id);
    coachDocs.push({ id, value: coachReadDocument(current, listing), rev });
    for (const fact of coachStaffFacts(current, listing)) staffFacts.push({ id: fact._id, value: fact, rev });
  }
  const stored = new Map(storedStaff.map((f) => [f._id, f]));
  const changed = staffFacts.filter((f) => coaches.forced.has(f.value.memberId) || !sameFact(stored.get(f.id), f.value));
  return {
    coachDocs,
    staffFacts,
    staffClubs: subjectsReachedBy(
      undefined,
      changed.map((f) => f.value),
    ).clubs,
  };
}

/** Derives clubs from their stored state, every fact about them and their revision. */
export async function deriveClubs(
  ids: readonly string[],
  { store, config, now }: DerivationEdges,
): Promise<Stamped<ClubDocument | null>[]> {
  if (ids.length === 0) return [];
  const [inputs, states] = await Promise.all([subjectInputs(store, 'club', ids), store.loadStates('club', ids)]);
  const docs: Stamped<ClubDocument | null>[] = [];
  for (const id of ids) {
    const state = states.get(id);
    if (!state) continue;
    const membership = deriveClubMembership(state, inputs.factsOf(id), now, config);
    docs.push({ id, value: clubReadDocument(state, membership), rev: inputs.revOf(id) });
  }
  return docs;
}

type Subject = 'coach' | 'club';

/** The keys of subjects' revisions (`coach|<id>`, `club|<id>`). */
export const revisionKeys = (kind: Subject, ids: Iterable<string>): string[] => [...ids].map((id) => `${kind}|${id}`);

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
  return { revOf: (id) => revs.get(`${kind}|${id}`) ?? 0, factsOf: (id) => bySubject.get(id) ?? [] };
}
