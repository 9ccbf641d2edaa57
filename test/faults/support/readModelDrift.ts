import { isDeepStrictEqual } from 'node:util';
import type { Snapshot } from '../../support/readModelSnapshot.ts';
import { listings } from '../../support/readModelSnapshot.ts';

/** How a projected read model differs from the clean rebuild of the same events. */
export interface Drift {
  /** Documents the rebuild has and the projection lacks, and the reverse. */
  missingDocuments: number;
  extraDocuments: number;
  /** Documents present in both whose content differs. */
  differingDocuments: number;
  /** Counted facts (competition entries, club dancers and coaches) below / above the rebuild's. */
  countsLost: number;
  countsDoubled: number;
}

const counted = (listing: string, doc: Record<string, unknown>): number[] => {
  if (listing === 'competitions') return [Number((doc.registration as { entriesCount?: number } | undefined)?.entriesCount ?? 0)];
  if (listing === 'clubs') return [Number(doc.dancersCount ?? 0), Number(doc.coachesCount ?? 0)];
  return [];
};

/** Dates as strings and undefined fields dropped on both sides, as toEqual compares them. */
const plain = (doc: Record<string, unknown>): unknown => JSON.parse(JSON.stringify(doc));

export function readModelDrift(actual: Snapshot, expected: Snapshot): Drift {
  const drift: Drift = { missingDocuments: 0, extraDocuments: 0, differingDocuments: 0, countsLost: 0, countsDoubled: 0 };
  for (const listing of listings) {
    const got = new Map(actual[listing].map((d) => [String(d._id), d]));
    const want = new Map(expected[listing].map((d) => [String(d._id), d]));
    for (const [id, doc] of want) {
      const other = got.get(id);
      const wantCounts = counted(listing, doc);
      const gotCounts = other ? counted(listing, other) : wantCounts.map(() => 0);
      wantCounts.forEach((n, i) => {
        drift.countsLost += Math.max(0, n - gotCounts[i]!);
        drift.countsDoubled += Math.max(0, gotCounts[i]! - n);
      });
      if (!other) drift.missingDocuments += 1;
      else if (!isDeepStrictEqual(plain(other), plain(doc))) drift.differingDocuments += 1;
    }
    for (const id of got.keys()) if (!want.has(id)) drift.extraDocuments += 1;
  }
  return drift;
}
