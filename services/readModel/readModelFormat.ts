/**
 * The format of the read model this code writes: the shape of its stored documents, their query
 * keys and the indexes over them. Bump it (and say what changed below) whenever a document a
 * deployed model holds would no longer suit the code, so that a projector starting on an older
 * model rebuilds it as a shadow generation before projecting into it (projector/upgrade), and the
 * API serves each generation in the format recorded for it.
 *
 * 1. Every model built before formats were recorded (a meta document without `format`).
 * 2. `countryId` and `country` share one multikey key: `q.country` of the people and the clubs
 *    also holds countryIdKey of each country id, clubs no longer store `q.countryIds`, and both
 *    filters lead the same indexes (one per sort and order on `q.country`) instead of a set each.
 * 3. The search keys (`tokens`, `text`) leave `q` for a field of their own, `s`: the stand-in
 *    decodes the whole `q` of every matched document to sort on a key in it, and a competition's
 *    hundreds of tokens made its sorted pages several times dearer (docs/performance.md).
 * 4. Tallies: per generation, a `tallies` collection holding the count of every facet key
 *    (services/readModel/facets.ts) of the documents, kept in the same transaction as them, and
 *    `talliesOf` in the meta document saying whether they hold; the filter bodies and the default
 *    listings' totals read them instead of counting the documents. The documents are format 3's.
 * 5. A competition's entries leave its state for records of their own (`competition_entries`),
 *    and the state keeps its counts (entries, starts per category, their total) by delta, so an
 *    event costs what it touches, not what the competition holds. The read documents and their
 *    tallies are format 4's; a format 4 state would lack the counters, hence the rebuild.
 * 6. A person's links leave its state for records of their own (`person_links`, one per member
 *    role and subject, holding every period of that link), and the state keeps which are open and
 *    which link facts its last batch recomputed, so a link event loads and writes the link it
 *    names and the facts that change, not the person's history. The read documents and their
 *    tallies are format 5's; a format 5 person state holds its links inline, hence the rebuild.
 */
export const READ_MODEL_FORMAT = 6;

/** The first format whose generations have tallies (a projector of an older one does not keep them). */
export const TALLIES_SINCE_FORMAT = 4;

/** The oldest format the API still serves: the one a model may hold while its upgrade runs. */
export const OLDEST_SERVED_FORMAT = 1;

/** Whether this code reads a generation of `format` right (the API serves it). */
export const servesFormat = (format: number): boolean => format >= OLDEST_SERVED_FORMAT && format <= READ_MODEL_FORMAT;

/** Every format the API serves, oldest first: each has its filter declarations and index plan. */
export const SERVED_FORMATS: readonly number[] = Array.from(
  { length: READ_MODEL_FORMAT - OLDEST_SERVED_FORMAT + 1 },
  (_, i) => OLDEST_SERVED_FORMAT + i,
);
