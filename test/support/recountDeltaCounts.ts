import type { Db } from 'mongodb';
import type { EntryNaming, StoredCompetitionState } from '../../projector/evolve/competitionState.ts';
import { covers } from '../../projector/evolve/intervals.ts';
import type { MemberLinkFact } from '../../projector/evolve/memberLinks.ts';
import type { CompetitionEntryRecord } from '../../projector/write/competitionEntryRecords.ts';
import { projectionCollections, type ProjectionCollections } from '../../projector/write/projectionCollections.ts';
import type { TallyDocument } from '../../projector/write/talliedBulk.ts';
import { facetProjection, facetsOf, type FacetFields } from '../../services/readModel/facets.ts';
import { readMeta } from '../../services/mongo/index.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import { listings } from './readModelSnapshot.ts';

// Every count the projector keeps by delta (or derives per batch from records of their own),
// recounted from the records it was counted over. After a crash, a fail-over or a replay, a delta
// applied twice or lost shows here as a difference, where comparing with a rebuild of the same
// events could only tell that some document differs.

/** One count that is not what its records add up to: where it is kept, what it says, what they say. */
export interface Miscount {
  where: string;
  kept: number;
  recounted: number;
}

/** What a recount went over, so a test can tell that it compared something. */
export interface Recount {
  miscounts: Miscount[];
  competitions: number;
  entries: number;
  clubs: number;
  /** Tally keys compared: 0 when the generation keeps none. */
  tallies: number;
}

type StoredDoc = Record<string, unknown> & { _id: string };

/** A competition's state as stored, in either layout of its categories (in it, or records of their own). */
type StoredState = Omit<StoredCompetitionState, 'categories' | 'starts'> & {
  _id: string;
  categories?: { id: string }[];
  starts?: Record<string, { n: number; epoch: number; k?: number }>;
};

/** A record of one category id, versioned like an entry record (competitionCategoryRecords.ts). */
interface CategoryIdRecord<T> {
  _id: string;
  v: number;
  value: T | null;
  pv: number;
  prev: T | null;
}

/** A competition's kept starts by category id, and the ids of its categories (one per category), at its state's version. */
type CategoryLayout = (state: StoredState) => { kept: Map<string, { n: number; epoch: number; k?: number }>; categoryIds: string[] };

/**
 * How a competition's categories are kept: in its state, or each id's categories and starts as
 * records of their own (collections competitionCategories and competitionCategoryStarts of the
 * generation), read once here.
 */
async function categoryLayout(db: Db, names: ProjectionCollections): Promise<CategoryLayout> {
  const own = names as unknown as Partial<Record<'competitionCategories' | 'competitionCategoryStarts', string>>;
  if (own.competitionCategories === undefined || own.competitionCategoryStarts === undefined)
    return (state) => ({
      kept: new Map(Object.entries(state.starts ?? {})),
      categoryIds: (state.categories ?? []).map((c) => c.id),
    });
  const byCompetition = async <T>(collection: string): Promise<Map<string, CategoryIdRecord<T>[]>> => {
    const grouped = new Map<string, CategoryIdRecord<T>[]>();
    for await (const record of db.collection<CategoryIdRecord<T>>(collection).find({})) {
      const competitionId = record._id.slice(0, record._id.indexOf('|'));
      grouped.set(competitionId, [...(grouped.get(competitionId) ?? []), record]);
    }
    return grouped;
  };
  const starts = await byCompetition<{ n: number; epoch: number; k?: number }>(own.competitionCategoryStarts);
  const categories = await byCompetition<unknown[]>(own.competitionCategories);
  const at = <T>(record: CategoryIdRecord<T>, version: number): T | null =>
    record.v <= version ? record.value : record.pv <= version ? record.prev : null;
  const idOf = (record: { _id: string }): string => record._id.slice(record._id.indexOf('|') + 1);
  return (state) => {
    const kept = new Map<string, { n: number; epoch: number; k?: number }>();
    for (const record of starts.get(state._id) ?? []) {
      const value = at(record, state.version);
      if (value) kept.set(idOf(record), value);
    }
    const categoryIds = (categories.get(state._id) ?? []).flatMap((record) => (at(record, state.version) ?? []).map(() => idOf(record)));
    return { kept, categoryIds };
  };
}

/** The entry as the stored state's version sees it (as competitionEntryRecords reads it back). */
function entryAt(record: CompetitionEntryRecord, version: number): EntryNaming[] | null {
  if (record.v <= version) return record.categories;
  if (record.pv <= version) return record.prev;
  return null;
}

/**
 * Recounts, in generation `generation` of `db` at instant `now` (the projector's clock):
 * - each competition's entriesCount, starts per category id and startsCount, in its state and in
 *   its read document (registration and each category's startsCount), from competition_entries;
 * - each club's dancersCount and coachesCount from its link facts (member_links);
 * - every tally of every listing (the facet counts the API serves) from the read documents, when
 *   the generation's tallies hold (`tallies` is 0 when they do not).
 */
export async function recountDeltaCounts(db: Db, generation: number, now: Date): Promise<Recount> {
  const names = projectionCollections(generation);
  const miscounts: Miscount[] = [];
  const check = (where: string, kept: unknown, recounted: number): void => {
    if (kept !== recounted) miscounts.push({ where, kept: Number(kept), recounted });
  };

  const records = new Map<string, CompetitionEntryRecord[]>();
  let entries = 0;
  for await (const record of db.collection<CompetitionEntryRecord>(names.competitionEntries).find({})) {
    const of = records.get(record.competitionId) ?? [];
    of.push(record);
    records.set(record.competitionId, of);
    entries++;
  }
  const competitionDocs = await byId(db, names.read.competitions);
  const layout = await categoryLayout(db, names);
  const states = await db.collection<StoredState>(names.states.competition).find({}).toArray();
  for (const state of states) {
    const live = (records.get(state._id) ?? []).map((r) => entryAt(r, state.version)).filter((c): c is EntryNaming[] => c !== null);
    const { kept, categoryIds } = layout(state);
    const epochOf = (id: string): number => kept.get(id)?.epoch ?? 0;
    const starts = new Map<string, number>();
    for (const naming of live.flat()) if (naming.epoch === epochOf(naming.id)) starts.set(naming.id, (starts.get(naming.id) ?? 0) + 1);
    const at = `competition ${state._id}`;
    check(`${at} state entriesCount`, state.entriesCount, live.length);
    for (const id of new Set([...kept.keys(), ...starts.keys()])) check(`${at} starts of ${id}`, kept.get(id)?.n ?? 0, starts.get(id) ?? 0);
    // Where the starts record how many categories have their id, that is a count too.
    for (const [id, { k }] of kept) if (k !== undefined) check(`${at} categories of ${id}`, k, categoryIds.filter((c) => c === id).length);
    const startsCount = categoryIds.reduce((sum, id) => sum + (starts.get(id) ?? 0), 0);
    check(`${at} state startsCount`, state.startsCount, startsCount);
    const doc = competitionDocs.get(state._id) as
      { registration: { entriesCount: number; startsCount: number }; categories: { id: string; startsCount: number }[] } | undefined;
    if (!doc) continue;
    check(`${at} document entriesCount`, doc.registration.entriesCount, live.length);
    check(`${at} document startsCount`, doc.registration.startsCount, startsCount);
    for (const category of doc.categories)
      check(`${at} document category ${category.id} startsCount`, category.startsCount, starts.get(category.id) ?? 0);
  }

  const facts = await db.collection<MemberLinkFact>(names.memberLinks).find({ kind: 'club' }).toArray();
  const instant = now.toISOString();
  const clubDocs = await byId(db, names.read.clubs);
  for (const [clubId, doc] of clubDocs) {
    if (doc.registryState === 'GONE') continue;
    const listed = (role: 'dancer' | 'coach'): number =>
      new Set(facts.filter((f) => f.subjectId === clubId && f.memberRole === role && covers(f.listed, instant)).map((f) => f.memberId))
        .size;
    check(`club ${clubId} dancersCount`, doc.dancersCount, listed('dancer'));
    check(`club ${clubId} coachesCount`, doc.coachesCount, listed('coach'));
  }

  // Tallies count a generation only while its meta says they hold (a write that could not keep
  // them, as on a server whose transaction lifetime is too long, drops them for good).
  if ((await readMeta(db)).talliesOf !== generation)
    return { miscounts, competitions: states.length, entries, clubs: clubDocs.size, tallies: 0 };
  // The tallies summed by key as stored (a negative sum, a delta taken twice, shows too), against
  // the facet keys of every read document, counted one by one (services/readModel/facets.ts).
  const kept = new Map<string, number>();
  for await (const { l, f, k, n } of db.collection<TallyDocument>(names.tallies).find({}))
    kept.set(`${l} ${f} ${JSON.stringify(k)}`, (kept.get(`${l} ${f} ${JSON.stringify(k)}`) ?? 0) + n);
  const counted = new Map<string, number>();
  for (const listing of listings as ReadListing[])
    for await (const doc of db.collection(names.read[listing]).find({}, { projection: facetProjection(listing) }))
      for (const [facet, key] of facetsOf(listing, doc as FacetFields)) {
        const id = `${listing} ${facet} ${JSON.stringify(key)}`;
        counted.set(id, (counted.get(id) ?? 0) + 1);
      }
  const tallyKeys = new Set([...kept.keys(), ...counted.keys()]);
  for (const key of tallyKeys) check(`tally ${key}`, kept.get(key) ?? 0, counted.get(key) ?? 0);
  const tallies = tallyKeys.size;
  return { miscounts, competitions: states.length, entries, clubs: clubDocs.size, tallies };
}

async function byId(db: Db, collection: string): Promise<Map<string, StoredDoc>> {
  const docs = await db.collection<StoredDoc>(collection).find({}).toArray();
  return new Map(docs.map((d) => [d._id, d]));
}
