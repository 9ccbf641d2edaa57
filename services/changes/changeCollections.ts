import { collectionName } from '../mongo/readModelMeta.ts';
import type { ReadListing } from '../readModel/indexPlan.ts';
import type { ChangeResourceType } from '../../schemas/api/changes.ts';

/**
 * The change feed of one read-model generation: a rebuild's generation starts its own, and a
 * cursor carries the generation it counts in.
 *
 * - `log`: one record per change, `_id` its position (1, 2, …), written only by appendChanges.
 * - `heads`: per resource (`<listing>|<id>`) the fingerprint of the public version last announced,
 *   plus one counter document (`_id: SEQUENCE_ID`) holding the last position given out and the
 *   position below which the log has been trimmed.
 * - `intents`: the resources a batch is about to write, recorded before it writes them, so that a
 *   batch that dies between its writes and its announcement is announced by the clock.
 */
export interface ChangeCollections {
  log: string;
  heads: string;
  intents: string;
}

export function changeCollections(generation: number): ChangeCollections {
  return {
    log: collectionName('change_log', generation),
    heads: collectionName('change_heads', generation),
    intents: collectionName('change_intents', generation),
  };
}

export const SEQUENCE_ID = '#sequence';

/** The counter document in `heads`. */
export interface ChangeSequence {
  _id: typeof SEQUENCE_ID;
  /** The last position given out. */
  seq: number;
  /** Every change at or below this position has been trimmed (0: none). */
  trimmedThrough: number;
}

export const RESOURCE_TYPE_OF: Readonly<Record<ReadListing, ChangeResourceType>> = {
  competitions: 'competition',
  dancers: 'dancer',
  coaches: 'coach',
  judges: 'judge',
  clubs: 'club',
};

export const LISTING_OF: Readonly<Record<ChangeResourceType, ReadListing>> = {
  competition: 'competitions',
  dancer: 'dancers',
  coach: 'coaches',
  judge: 'judges',
  club: 'clubs',
};
