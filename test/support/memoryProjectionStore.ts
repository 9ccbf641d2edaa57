import type { MemberLinkFact, StoredCompetitionState } from '../../projector/evolve/index.ts';
import type { CompetitionEntryRecord } from '../../projector/write/competitionEntryRecords.ts';
import type { PersonLinkQuery, PersonLinkRecord } from '../../projector/write/personLinkRecords.ts';
import type {
  DerivedDocs,
  DerivedListing,
  OwnDocs,
  ProjectionStore,
  Stamp,
  Stamped,
  Stamps,
  StateByKind,
  StateKind,
  States,
} from '../../projector/write/projectionStore.ts';

type Listing = 'competitions' | 'dancers' | 'judges' | 'coaches' | 'clubs';
type StoredDoc = { nextDueAt?: Date | null; rev?: number } & Record<string, unknown>;

/**
 * The projection store in process memory. It applies the same guards as the Mongo store and
 * counts every document write, so it serves the pipeline's unit tests and the benchmark's
 * "pipeline without a database" run. Values are cloned on the way in and out, as a database
 * would, so a test cannot pass by sharing objects.
 */
export class MemoryProjectionStore implements ProjectionStore {
  /** false: keep references instead of copies (the benchmark, where copying is not our cost). */
  private readonly copy: <T>(value: T) => T;
  /**
   * false: keep only what later reads and guards need of a read document (its stamp or revision
   * and nextDueAt), not its body. The benchmark's counting run: the pipeline never reads a read
   * document back, so the bodies would only measure this store's memory, not the projector's.
   */
  private readonly keepBodies: boolean;

  /** Whether writes add their serialized size to `bytes` (a test of what a batch writes per event). */
  private readonly countBytes: boolean;

  constructor(opts: { clone?: boolean; keepDocuments?: boolean; countBytes?: boolean } = {}) {
    this.copy = opts.clone === false ? <T>(value: T): T => value : <T>(value: T): T => structuredClone(value);
    this.keepBodies = opts.keepDocuments ?? true;
    this.countBytes = opts.countBytes ?? false;
  }

  private body(doc: object): StoredDoc {
    if (this.keepBodies) return this.copy(doc) as unknown as StoredDoc;
    const { nextDueAt } = doc as StoredDoc;
    return { nextDueAt };
  }

  readonly states: { [K in StateKind]: Map<string, StateByKind[K]> } = { competition: new Map(), person: new Map(), club: new Map() };
  /** Each fact's guard (the stamp of a dancer's fact, the revision of a coach's staff fact). */
  readonly facts = new Map<string, { rev?: number; stamp?: Stamp }>();
  /** The facts as loadFacts returns them, kept apart from their guards so loading copies nothing. */
  private readonly plainFacts = new Map<string, MemberLinkFact>();
  /** `kind|subjectId` → fact ids, so loading a subject's facts costs what a database index would. */
  private readonly factsBySubject = new Map<string, Set<string>>();
  /** `memberRole|memberId` → fact ids, likewise for loadMemberFacts. */
  private readonly factsByMember = new Map<string, Set<string>>();
  readonly revisions = new Map<string, number>();
  readonly docs: Record<Listing, Map<string, StoredDoc>> = {
    competitions: new Map(),
    dancers: new Map(),
    judges: new Map(),
    coaches: new Map(),
    clubs: new Map(),
  };
  /** The competition entry records, by `<competitionId>|<entryId>`. */
  readonly entries = new Map<string, CompetitionEntryRecord>();
  /** The person link records, by `<personId>|<kind>|<role>|<subjectId>`. */
  readonly personLinks = new Map<string, PersonLinkRecord>();
  /** `personId` → its link record ids, so a query costs what a database index would. */
  private readonly linksByPerson = new Map<string, Set<string>>();
  readonly writes = new Map<string, number>();
  /** Serialized bytes written per collection (only with `countBytes`). */
  readonly bytes = new Map<string, number>();
  /** Serialized bytes loaded per collection (only with `countBytes`). */
  readonly loadedBytes = new Map<string, number>();
  /** Documents loaded per collection (states and entry records). */
  readonly loads = new Map<string, number>();
  readonly changed: string[][] = [];
  /**
   * Writes of a state, read document or link fact that an earlier write of the same batch had
   * already written (the goal: none). A batch ends with its signalChanged call. Revision bumps
   * are not documents of the read model and may repeat (see writeOrder).
   */
  rewritesInBatch = 0;
  private readonly writtenInBatch = new Set<string>();

  private count(collection: string, n: number): void {
    this.writes.set(collection, (this.writes.get(collection) ?? 0) + n);
  }

  private countSize(collection: string, values: Iterable<unknown>): void {
    if (!this.countBytes) return;
    let n = 0;
    for (const value of values) n += JSON.stringify(value).length;
    this.bytes.set(collection, (this.bytes.get(collection) ?? 0) + n);
  }

  private countLoaded(collection: string, values: Iterable<unknown>): void {
    if (!this.countBytes) return;
    let n = 0;
    for (const value of values) n += JSON.stringify(value).length;
    this.loadedBytes.set(collection, (this.loadedBytes.get(collection) ?? 0) + n);
  }

  private noteWritten(collection: string, ids: Iterable<string>): void {
    for (const id of ids) {
      const key = `${collection}|${id}`;
      if (this.writtenInBatch.has(key)) this.rewritesInBatch++;
      else this.writtenInBatch.add(key);
    }
  }

  get totalWrites(): number {
    let total = 0;
    for (const n of this.writes.values()) total += n;
    return total;
  }

  loadStates<K extends StateKind>(kind: K, ids: readonly string[]): Promise<Map<string, StateByKind[K]>> {
    const found = new Map<string, StateByKind[K]>();
    const states = this.states[kind] as Map<string, StateByKind[K]>;
    for (const id of ids) {
      const state = states.get(id);
      // A competition's entries are records of their own: its state comes without them.
      if (state) found.set(id, kind === 'competition' ? { ...this.copy(state), entries: {} } : this.copy(state));
    }
    this.loads.set(`${kind}_states`, (this.loads.get(`${kind}_states`) ?? 0) + found.size);
    this.countLoaded(`${kind}_states`, found.values());
    return Promise.resolve(found);
  }

  loadCompetitionEntries(ids: readonly string[]): Promise<CompetitionEntryRecord[]> {
    const found = ids.flatMap((id) => (this.entries.has(id) ? [this.copy(this.entries.get(id)!)] : []));
    this.loads.set('competition_entries', (this.loads.get('competition_entries') ?? 0) + found.length);
    this.countLoaded('competition_entries', found);
    return Promise.resolve(found);
  }

  writeCompetitionEntries(records: readonly CompetitionEntryRecord[]): Promise<void> {
    for (const record of records) if ((this.entries.get(record._id)?.pv ?? 0) <= record.pv) this.entries.set(record._id, this.copy(record));
    this.count('competition_entries', records.length);
    this.countSize('competition_entries', records);
    this.noteWritten(
      'competition_entries',
      records.map((r) => r._id),
    );
    return Promise.resolve();
  }

  loadPersonLinks(ids: readonly string[]): Promise<PersonLinkRecord[]> {
    const found = ids.flatMap((id) => (this.personLinks.has(id) ? [this.copy(this.personLinks.get(id)!)] : []));
    this.loads.set('person_links', (this.loads.get('person_links') ?? 0) + found.length);
    this.countLoaded('person_links', found);
    return Promise.resolve(found);
  }

  findPersonLinks(query: PersonLinkQuery): Promise<PersonLinkRecord[]> {
    const { endFrom, newerThan, role } = query;
    const found: PersonLinkRecord[] = [];
    for (const personId of new Set(query.personIds)) {
      for (const id of this.linksByPerson.get(personId) ?? []) {
        const record = this.personLinks.get(id)!;
        if (role !== undefined && record.role !== role) continue;
        const selected =
          (endFrom === undefined && newerThan === undefined) ||
          (endFrom !== undefined && record.end !== null && record.end >= endFrom) ||
          (newerThan !== undefined && record.v > newerThan);
        if (selected) found.push(this.copy(record));
      }
    }
    this.loads.set('person_links', (this.loads.get('person_links') ?? 0) + found.length);
    this.countLoaded('person_links', found);
    return Promise.resolve(found);
  }

  writePersonLinks(records: readonly PersonLinkRecord[]): Promise<void> {
    for (const record of records) {
      if ((this.personLinks.get(record._id)?.pv ?? 0) > record.pv) continue;
      this.personLinks.set(record._id, this.copy(record));
      addTo(this.linksByPerson, record.personId, record._id);
    }
    this.count('person_links', records.length);
    this.countSize('person_links', records);
    this.noteWritten(
      'person_links',
      records.map((r) => r._id),
    );
    return Promise.resolve();
  }

  loadFactsById(ids: readonly string[]): Promise<MemberLinkFact[]> {
    const found = ids.flatMap((id) => (this.plainFacts.has(id) ? [this.copy(this.plainFacts.get(id)!)] : []));
    this.countLoaded('member_links', found);
    return Promise.resolve(found);
  }

  loadFacts(kind: 'club' | 'coach', subjectIds: readonly string[]): Promise<MemberLinkFact[]> {
    const found = this.factsIn(this.factsBySubject, kind, subjectIds);
    this.countLoaded('member_links', found);
    return Promise.resolve(found);
  }

  loadMemberFacts(memberRole: 'dancer' | 'coach', memberIds: readonly string[]): Promise<MemberLinkFact[]> {
    const found = this.factsIn(this.factsByMember, memberRole, memberIds);
    this.countLoaded('member_links', found);
    return Promise.resolve(found);
  }

  /** The facts an index lists under `prefix|id` for each of the ids. */
  private factsIn(index: Map<string, Set<string>>, prefix: string, ids: readonly string[]): MemberLinkFact[] {
    const found: MemberLinkFact[] = [];
    for (const id of new Set(ids)) {
      for (const factId of index.get(`${prefix}|${id}`) ?? []) found.push(this.copy(this.plainFacts.get(factId)!));
    }
    return found;
  }

  private putFact(fact: MemberLinkFact, guard: { rev?: number; stamp?: Stamp }): void {
    this.facts.set(fact._id, guard);
    this.plainFacts.set(fact._id, fact);
    addTo(this.factsBySubject, `${fact.kind}|${fact.subjectId}`, fact._id);
    addTo(this.factsByMember, `${fact.memberRole}|${fact.memberId}`, fact._id);
  }

  writeStates(states: States): Promise<void> {
    for (const kind of ['competition', 'person', 'club'] as const) {
      const target = this.states[kind] as Map<string, { version: number }>;
      const stored = [...states[kind].values()].map((state) =>
        kind === 'competition' ? withoutEntries(state as StateByKind['competition']) : state,
      );
      for (const state of stored) {
        if ((target.get(state._id)?.version ?? 0) <= state.version) target.set(state._id, this.copy(state));
      }
      this.count(`${kind}_states`, states[kind].size);
      this.countSize(`${kind}_states`, stored);
      this.noteWritten(`${kind}_states`, states[kind].keys());
    }
    return Promise.resolve();
  }

  writeOwnDocs(docs: OwnDocs, stamps: Stamps): Promise<void> {
    for (const listing of ['competitions', 'dancers', 'judges'] as const) {
      for (const [id, doc] of docs[listing]) {
        const stamp = stampOf(stamps, id);
        if (!wins(this.docs[listing].get(id) as { stamp?: Stamp } | undefined, stamp)) continue;
        if (doc === null) this.docs[listing].delete(id);
        else this.docs[listing].set(id, { ...this.body(doc), stamp });
      }
      this.count(listing, docs[listing].size);
      this.countSize(listing, docs[listing].values());
      this.noteWritten(listing, docs[listing].keys());
    }
    return Promise.resolve();
  }

  writeDancerFacts(facts: ReadonlyMap<string, MemberLinkFact>, stamps: Stamps): Promise<void> {
    for (const [id, fact] of facts) {
      const stamp = stampOf(stamps, fact.memberId);
      if (wins(this.facts.get(id), stamp)) this.putFact(this.copy(fact), { stamp });
    }
    this.count('member_links', facts.size);
    this.countSize('member_links', facts.values());
    this.noteWritten('member_links', facts.keys());
    return Promise.resolve();
  }

  bumpRevisions(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.revisions.set(key, (this.revisions.get(key) ?? 0) + 1);
    this.count('subject_revisions', keys.length);
    return Promise.resolve();
  }

  readRevisions(keys: readonly string[]): Promise<Map<string, number>> {
    return Promise.resolve(new Map(keys.filter((k) => this.revisions.has(k)).map((k) => [k, this.revisions.get(k)!])));
  }

  writeDerived<L extends DerivedListing>(listing: L, docs: readonly Stamped<DerivedDocs[L] | null>[]): Promise<Set<string>> {
    const written = new Set<string>();
    const target = this.docs[listing];
    for (const { id, value, rev } of docs) {
      const stored = target.get(id);
      if (stored && (stored.rev ?? 0) >= rev) continue;
      target.set(id, value === null ? { _id: id, rev, registryState: 'GONE', nextDueAt: null } : { ...this.body(value), rev });
      written.add(id);
    }
    this.count(listing, written.size);
    this.countSize(
      listing,
      docs.filter((d) => written.has(d.id)).map((d) => d.value),
    );
    this.noteWritten(listing, written);
    return Promise.resolve(written);
  }

  writeStaffFacts(facts: readonly Stamped<MemberLinkFact>[]): Promise<void> {
    let n = 0;
    for (const { id, value, rev } of facts) {
      const stored = this.facts.get(id);
      if (stored && (stored.rev ?? 0) >= rev) continue;
      this.putFact(this.copy(value), { rev });
      this.countSize('member_links', [value]);
      this.noteWritten('member_links', [id]);
      n++;
    }
    this.count('member_links', n);
    return Promise.resolve();
  }

  findDue(listing: Listing, now: Date, limit: number): Promise<string[]> {
    const due = [...this.docs[listing].entries()]
      .filter(([, d]) => d.nextDueAt instanceof Date && d.nextDueAt.getTime() <= now.getTime())
      .sort(([a, da], [b, db]) => da.nextDueAt!.getTime() - db.nextDueAt!.getTime() || (a < b ? -1 : 1))
      .slice(0, limit)
      .map(([id]) => id);
    return Promise.resolve(due);
  }

  signalChanged(listings: ReadonlySet<string>): Promise<void> {
    this.writtenInBatch.clear();
    if (listings.size > 0) this.changed.push([...listings].sort());
    return Promise.resolve();
  }
}

/** What competition_states holds of a folded state. */
function withoutEntries(state: StateByKind['competition']): StoredCompetitionState {
  const { entries: _entries, ...stored } = state;
  return stored;
}

const stampOf = (stamps: Stamps, aggregateId: string): Stamp => ({ v: stamps.versions.get(aggregateId) ?? 0, at: stamps.stampAt });

/** Whether a stamped write replaces what is stored (the Mongo store's filter, as a predicate). */
const wins = (stored: { stamp?: Stamp } | undefined, stamp: Stamp): boolean =>
  !stored?.stamp || stored.stamp.v < stamp.v || (stored.stamp.v === stamp.v && stored.stamp.at <= stamp.at);

function addTo(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  if (ids) ids.add(id);
  else index.set(key, new Set([id]));
}
