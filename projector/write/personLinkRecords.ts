import type { DomainEvent } from '../../services/events/index.ts';
import { dancerListed, type Interval, type PersonLink, type PersonState, type ProjectionConfig } from '../evolve/index.ts';
import { StaleEntryRecord } from './competitionEntryRecords.ts';

/**
 * The periods of one of a person's links (collection person_links, `_id`
 * `<personId>|<kind>|<role>|<subjectId>`): every join and leave of one subject, oldest first. A
 * person's links live beside its state, not in it, so a link event loads and writes the record it
 * names, whatever the person's history. Its link fact (member_links) is a function of this record
 * and the dancer role's listed intervals alone.
 *
 * Crash safety is the entries' (competitionEntryRecords.ts): a batch writes the records it changed
 * before the state, each under `{ v: the state's new version, pv: the version it loaded, prev: the
 * periods then }`, and a record newer than the state it is read with is read as `prev`.
 */
export interface PersonLinkRecord {
  _id: string;
  personId: string;
  kind: PersonLink['kind'];
  role: PersonLink['role'];
  subjectId: string;
  /** The person's version after the batch that wrote the record, and the periods then. */
  v: number;
  links: PersonLink[];
  /** null while a period is open, else the last period's close: what a batch looks records up by. */
  end: string | null;
  /** The person's version that batch started from, and the periods then (null: none). */
  pv: number;
  prev: PersonLink[] | null;
}

/**
 * What a person's stored state keeps of its link records: which are open (an archival closes
 * them, the documents list them) and which facts its last batch recomputed. Facts are recomputed
 * only for the records that may have changed them (see loadLinkHistory); a replay or a clock
 * sweep of the person recomputes at least what the last batch did, since that batch may have died
 * before writing them.
 */
export interface PersonLinkBook extends NonNullable<PersonState['linkBook']> {
  /** Ids of the records with an open period at the state's version. */
  open: string[];
  /** The `now` the last batch computed the facts at; null when none were (a rebuild's replay). */
  factsAt: string | null;
  /** The last batch recomputed the facts of every record whose last period ended at or after this instant ('' all, null none). */
  factsFrom: string | null;
  /** ... and of every record written after this version of the person. */
  factsSince: number;
  /** The last instant one of its closed records ended (null: none is): no record ends after it. */
  lastEnd: string | null;
}

export const linkRecordId = (personId: string, link: Pick<PersonLink, 'kind' | 'role' | 'subjectId'>): string =>
  `${personId}|${link.kind}|${link.role}|${link.subjectId}`;

/** The link records a person's events name (joins, leaves, assignments). */
export function linkRecordIds(events: readonly DomainEvent[]): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  const add = (personId: string, kind: PersonLink['kind'], role: PersonLink['role'], subjectId: string): void => {
    const of = ids.get(personId) ?? new Set<string>();
    ids.set(personId, of.add(linkRecordId(personId, { kind, role, subjectId })));
  };
  for (const event of events) {
    if (event.type === 'person.club_joined' || event.type === 'person.club_left')
      add(event.aggregateId, 'club', event.data.role, event.data.clubId);
    else if (event.type === 'person.coach_assigned' || event.type === 'person.coach_unassigned')
      add(event.aggregateId, 'coach', 'dancer', event.data.coachId);
  }
  return ids;
}

/** A person's link records as loaded for a batch: at the stored state's version, before the fold. */
export interface LoadedLinks {
  version: number;
  /** The state's book as loaded (undefined: no state stored). */
  book: PersonLinkBook | undefined;
  /** The periods of each loaded record, as loaded (copies: the fold changes the state's). */
  records: Map<string, PersonLink[] | null>;
  /** The dancer role's listed intervals at `now`, before the fold. */
  listedBefore: Interval[];
  /** Which untouched records loadLinkHistory added (see historyScope): a book's `factsFrom` and `factsSince`. */
  scope: { endFrom: string | null; newerThan: number };
}

export interface LinkStore {
  loadPersonLinks(ids: readonly string[]): Promise<PersonLinkRecord[]>;
  findPersonLinks(query: PersonLinkQuery): Promise<PersonLinkRecord[]>;
}

/** Records of these persons: all (no `endFrom` nor `newerThan`), or those ending at or after `endFrom` or written after `newerThan`. */
export interface PersonLinkQuery {
  personIds: readonly string[];
  role?: PersonLink['role'];
  endFrom?: string;
  newerThan?: number;
}

/**
 * Before the fold: puts into each person's state (loaded, or new) the records its events name and
 * those open at its version, read at that version; returns them as loaded.
 */
export async function loadNamedLinks(
  store: LinkStore,
  persons: Map<string, PersonState>,
  ids: Iterable<string>,
  events: readonly DomainEvent[],
  now: Date,
  config: ProjectionConfig,
): Promise<Map<string, LoadedLinks>> {
  const named = linkRecordIds(events);
  const wanted = new Map<string, string[]>();
  for (const id of ids) {
    const state = persons.get(id);
    wanted.set(id, [...new Set([...(named.get(id) ?? []), ...(state?.linkBook?.open ?? [])])]);
  }
  const records = await store.loadPersonLinks([...wanted.values()].flat());
  const byId = new Map(records.map((r) => [r._id, r]));
  const loaded = new Map<string, LoadedLinks>();
  for (const [personId, recordIds] of wanted) {
    const state = persons.get(personId);
    const version = state?.version ?? 0;
    const of: LoadedLinks = {
      version,
      book: state?.linkBook,
      records: new Map(),
      listedBefore: state ? dancerListed(state, now, config) : [],
      scope: { endFrom: null, newerThan: version },
    };
    loaded.set(personId, of);
    for (const id of recordIds) put(state, of, id, linksAt(byId.get(id), version));
  }
  return loaded;
}

/**
 * After the fold: adds to each person's state the records whose facts may differ from the stored
 * ones although the fold did not touch them. The fold changed the records its events name and
 * the open ones, all loaded. A fact is the record's periods intersected with the dancer role's
 * listed intervals, so the others' facts change only where those intervals changed before their
 * last period ended: at or after the first instant the listed intervals differ (before and after
 * the fold, both at `now`), or the instant the stored facts were computed at (nothing later is
 * in them). A person the batch replays or the clock sweeps also gets what its last batch
 * recomputed (its facts may not have been written). Returns the fact ids to compare with.
 */
export async function loadLinkHistory(
  store: LinkStore,
  persons: Map<string, PersonState>,
  loaded: Map<string, LoadedLinks>,
  forced: ReadonlySet<string>,
  now: Date,
  config: ProjectionConfig,
): Promise<void> {
  const all: string[] = [];
  const since: Array<{ personId: string; endFrom: string | null; newerThan: number }> = [];
  for (const [personId, of] of loaded) {
    const state = persons.get(personId);
    if (!state || of.version === 0) continue;
    const scope = historyScope(of, dancerListed(state, now, config), forced.has(personId));
    of.scope = scope;
    if (scope.endFrom === '') all.push(personId);
    else since.push({ personId, ...scope });
  }
  // No record of a person ends after its book's lastEnd: most batches look up none.
  const ending = since.filter((s) => s.endFrom !== null && (loaded.get(s.personId)?.book?.lastEnd ?? '') >= s.endFrom);
  const endFrom = ending.map((s) => s.endFrom!).sort()[0];
  // Records newer than the state are a died batch's: those its events name come back with its
  // replay, the others are read as they were (prev) and need no fact. Under the stored state,
  // only a replayed or swept person's last batch may have left facts unwritten.
  const replaying = since.filter((s) => forced.has(s.personId));
  const newerThan = Math.min(...replaying.map((s) => s.newerThan));
  const [full, ended, newer] = await Promise.all([
    all.length > 0 ? store.findPersonLinks({ personIds: all }) : [],
    endFrom !== undefined ? store.findPersonLinks({ personIds: ending.map((s) => s.personId), endFrom }) : [],
    replaying.length > 0 ? store.findPersonLinks({ personIds: replaying.map((s) => s.personId), newerThan }) : [],
  ]);
  const scopes = new Map(since.map((s) => [s.personId, s]));
  for (const record of [...full, ...ended, ...newer]) {
    const of = loaded.get(record.personId);
    if (!of || of.records.has(record._id)) continue;
    const scope = scopes.get(record.personId);
    const wanted = !scope || record.v > scope.newerThan || (scope.endFrom !== null && record.end !== null && record.end >= scope.endFrom);
    if (wanted) put(persons.get(record.personId), of, record._id, linksAt(record, of.version));
  }
}

/** Which untouched records may have facts to recompute: ending at or after `endFrom` ('' all, null none), or newer than `newerThan`. */
function historyScope(of: LoadedLinks, listedAfter: readonly Interval[], forced: boolean): { endFrom: string | null; newerThan: number } {
  const book = of.book;
  if (!book || book.factsAt === null) return { endFrom: '', newerThan: of.version };
  const from = [firstDifference(of.listedBefore, listedAfter), book.factsAt, forced ? book.factsFrom : null];
  return {
    endFrom: from.filter((f) => f !== null).sort()[0] ?? null,
    newerThan: forced ? Math.min(of.version, book.factsSince) : of.version,
  };
}

/** The first instant at which two sorted, disjoint interval lists differ (null: they are the same). */
export function firstDifference(a: readonly Interval[], b: readonly Interval[]): string | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) return (x ?? y)!.from;
    if (x.from !== y.from) return x.from < y.from ? x.from : y.from;
    if (x.to !== y.to) return x.to === null ? y.to : y.to === null ? x.to : x.to < y.to ? x.to : y.to;
  }
  return null;
}

function put(state: PersonState | undefined, of: LoadedLinks, id: string, links: PersonLink[] | null): void {
  of.records.set(id, links === null ? null : structuredClone(links));
  if (state && links !== null) state.links.push(...links.map((l) => ({ ...l })));
}

function linksAt(record: PersonLinkRecord | undefined, version: number): PersonLink[] | null {
  if (!record) return null;
  if (record.v <= version) return record.links;
  if (record.pv <= version) return record.prev;
  throw new StaleEntryRecord(`link ${record._id} was written from version ${record.pv} of its person, newer than ${version}`);
}

/**
 * The records of a person as a derivation reads them beside a state it did not fold: at the
 * state's version, or the newest when the state loaded is older than the batch that wrote them
 * (the person's own batch derives it again after, under a newer revision).
 */
export function putLinksOf(state: PersonState, records: readonly PersonLinkRecord[]): void {
  for (const record of records) {
    const links = record.v <= state.version || record.pv > state.version ? record.links : record.prev;
    if (links) state.links.push(...links.map((l) => ({ ...l })));
  }
}

/** The records a batch's fold changed and each person's new book (persons with events only). */
export function changedLinkRecords(
  persons: ReadonlyMap<string, PersonState>,
  loaded: ReadonlyMap<string, LoadedLinks>,
  withEvents: ReadonlySet<string>,
  factsAt: string | null,
): { records: PersonLinkRecord[]; books: Map<string, PersonLinkBook> } {
  const records: PersonLinkRecord[] = [];
  const books = new Map<string, PersonLinkBook>();
  for (const [personId, of] of loaded) {
    const state = persons.get(personId);
    if (!state || !withEvents.has(personId)) continue;
    let lastEnd = of.book?.lastEnd ?? null;
    const after = Map.groupBy(state.links, (link) => linkRecordId(personId, link));
    for (const [id, links] of after) {
      const before = of.records.get(id) ?? null;
      if (sameLinks(before, links)) continue;
      const first = links[0]!;
      records.push({
        _id: id,
        personId,
        kind: first.kind,
        role: first.role,
        subjectId: first.subjectId,
        v: state.version,
        links,
        end: endOf(links),
        pv: of.version,
        prev: before,
      });
      const end = endOf(links);
      if (end !== null && (lastEnd === null || end > lastEnd)) lastEnd = end;
    }
    const open = [...after].filter(([, links]) => endOf(links) === null).map(([id]) => id);
    books.set(personId, nextBook(of, open, factsAt, lastEnd));
  }
  return { records, books };
}

/** A replay or sweep of the person recomputes at least this batch's scope (it may die before the facts). */
function nextBook(of: LoadedLinks, open: string[], factsAt: string | null, lastEnd: string | null): PersonLinkBook {
  if (factsAt === null) return { open: open.sort(), factsAt, factsFrom: '', factsSince: 0, lastEnd };
  return { open: open.sort(), factsAt, factsFrom: of.scope.endFrom, factsSince: of.scope.newerThan, lastEnd };
}

const endOf = (links: readonly PersonLink[]): string | null => {
  let end = '';
  for (const link of links) {
    if (link.closedAt === null) return null;
    if (link.closedAt > end) end = link.closedAt;
  }
  return end;
};

function sameLinks(a: readonly PersonLink[] | null, b: readonly PersonLink[]): boolean {
  return (
    a !== null &&
    a.length === b.length &&
    a.every(
      (l, i) => l.since === b[i]!.since && l.openedAt === b[i]!.openedAt && l.closedAt === b[i]!.closedAt && l.closedBy === b[i]!.closedBy,
    )
  );
}

/** The state as person_states holds it: its links are records of their own. */
export const withoutLinks = (state: PersonState, book: PersonLinkBook | undefined): PersonState => ({
  ...state,
  links: [],
  ...(book ? { linkBook: book } : {}),
});
