import { MongoError } from 'mongodb';
import type { DomainEvent } from '../../services/events/index.ts';
import type { CompetitionEntry, CompetitionState, EntryNaming } from '../evolve/index.ts';

/**
 * One entry of one competition (collection competition_entries, `_id` `<competitionId>|<entryId>`):
 * entries live beside the competition's state, not in it, so an event loads and writes the entry
 * it names, whatever the size of the competition. The state keeps the counts by delta.
 *
 * A batch writes its entries before the state. A batch that died after the entries but before the
 * state is replayed from the state's version, so a record may be newer than the state it is read
 * with: it keeps the entry as it was when its batch started (`prev`, at the state's version `pv`
 * that batch loaded). Between `pv` and the stored state's version, only the batch that wrote the
 * record touched the entry (any later batch touching it rewrites it), so `prev` is the entry at
 * any stored version from `pv` up to, not including, `v`.
 */
export interface CompetitionEntryRecord {
  _id: string;
  competitionId: string;
  entryId: string;
  /** The competition's version after the batch that wrote the record, and the entry then (null: none). */
  v: number;
  categories: EntryNaming[] | null;
  /** The competition's version that batch started from, and the entry then. */
  pv: number;
  prev: EntryNaming[] | null;
}

export const entryRecordId = (competitionId: string, entryId: string): string => `${competitionId}|${entryId}`;

/** The ids of the entry records the events name (entry events of competitions). */
export function entryRecordIds(events: readonly DomainEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (
      event.type === 'competition.entry_submitted' ||
      event.type === 'competition.entry_changed' ||
      event.type === 'competition.entry_withdrawn'
    )
      ids.add(entryRecordId(event.aggregateId, event.data.entryId));
  }
  return [...ids];
}

/** A competition's entries as loaded for a batch: at the stored state's version, before the fold. */
export interface LoadedEntries {
  version: number;
  entries: Map<string, CompetitionEntry | null>;
}

/**
 * Thrown when a record was written by a batch that started from a newer state than the one
 * loaded: this batch is stale (its consumer was fenced out by a rebalance). A database error, so
 * the consumer retries the batch instead of dead-lettering its events (isInfrastructureError): by
 * then the state has moved on and the events come back as duplicates.
 */
export class StaleEntryRecord extends MongoError {}

/**
 * Each competition's named entries at the version of its loaded state (0 when none is stored), put
 * into the state for the fold; returns them as loaded, to compare with after the fold.
 */
export function resolveEntries(
  competitions: Map<string, CompetitionState>,
  records: readonly CompetitionEntryRecord[],
  named: readonly string[],
): Map<string, LoadedEntries> {
  const byId = new Map(records.map((r) => [r._id, r]));
  const loaded = new Map<string, LoadedEntries>();
  for (const id of named) {
    const bar = id.indexOf('|');
    const competitionId = id.slice(0, bar);
    const entryId = id.slice(bar + 1);
    const version = competitions.get(competitionId)?.version ?? 0;
    let of = loaded.get(competitionId);
    if (!of) loaded.set(competitionId, (of = { version, entries: new Map() }));
    const categories = entryAt(byId.get(id), version);
    of.entries.set(entryId, categories === null ? null : { categories });
    // No stored state, no entry: a record before the first state is a died batch's (read as its prev, none).
    const state = competitions.get(competitionId);
    if (state && categories !== null) state.entries[entryId] = { categories: categories.map((n) => ({ ...n })) };
  }
  return loaded;
}

function entryAt(record: CompetitionEntryRecord | undefined, version: number): EntryNaming[] | null {
  if (!record) return null;
  if (record.v <= version) return record.categories;
  if (record.pv <= version) return record.prev;
  throw new StaleEntryRecord(`entry ${record._id} was written from version ${record.pv} of its competition, newer than ${version}`);
}

/** The records of the entries a batch's fold changed, each under the competition's new version. */
export function changedEntryRecords(
  competitions: ReadonlyMap<string, CompetitionState>,
  loaded: ReadonlyMap<string, LoadedEntries>,
): CompetitionEntryRecord[] {
  const records: CompetitionEntryRecord[] = [];
  for (const [competitionId, { version, entries }] of loaded) {
    const state = competitions.get(competitionId);
    if (!state) continue;
    for (const [entryId, before] of entries) {
      const after = state.entries[entryId] ?? null;
      if (sameEntry(before, after)) continue;
      records.push({
        _id: entryRecordId(competitionId, entryId),
        competitionId,
        entryId,
        v: state.version,
        categories: after?.categories ?? null,
        pv: version,
        prev: before?.categories ?? null,
      });
    }
  }
  return records;
}

function sameEntry(a: CompetitionEntry | null, b: CompetitionEntry | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.categories.length === b.categories.length &&
    a.categories.every((n, i) => n.id === b.categories[i]!.id && n.epoch === b.categories[i]!.epoch)
  );
}
