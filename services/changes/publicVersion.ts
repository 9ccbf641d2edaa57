import { createHash } from 'node:crypto';
import type { ReadListing } from '../readModel/indexPlan.ts';
import { countryIdKey } from '../readModel/sortKeys.ts';

/** What the feed compares of a stored read document: whether it is public, and a fingerprint of what it holds. */
export interface PublicVersion {
  /** Null: the resource is not public (absent, a draft or unpublished competition, a coach or club on the buffer, a tombstone). */
  fingerprint: string | null;
  /** Its country keys for the feed's `country` and `countryId` filters. */
  country: string[];
}

/**
 * Fields that change without a visible change: the write stamp and revision (a replay rewrites
 * them), the clock's next due instant and the search keys derived from public fields.
 */
const UNSEEN = new Set(['_id', 'stamp', 'rev', 'nextDueAt', 's']);

const PUBLIC_REGISTRY_STATES = new Set(['REGISTRY', 'ARCHIVE']);

type Stored = Readonly<Record<string, unknown>>;

/**
 * The public version of a stored read document. Two documents get the same fingerprint exactly
 * when they hold the same fields (key order aside) other than UNSEEN, so a replay that rewrites
 * a document as it was announces nothing, and any visible difference is a change.
 */
export function publicVersion(listing: ReadListing, doc: Stored | null): PublicVersion {
  if (doc === null || !isPublic(listing, doc)) return { fingerprint: null, country: [] };
  const hash = createHash('sha256');
  for (const key of Object.keys(doc).sort()) {
    if (UNSEEN.has(key)) continue;
    hash.update(key).update('\u0000').update(stableJson(doc[key])).update('\u0000');
  }
  return { fingerprint: hash.digest('base64url'), country: countryOf(listing, doc) };
}

function isPublic(listing: ReadListing, doc: Stored): boolean {
  if (listing === 'competitions') return doc.visible === true;
  return typeof doc.registryState === 'string' && PUBLIC_REGISTRY_STATES.has(doc.registryState);
}

/** `q.country` holds the folded name and code (and, from format 2 on, the id key); the id key is added where it is missing. */
function countryOf(listing: ReadListing, doc: Stored): string[] {
  const q = (doc.q ?? {}) as { country?: unknown; countryIds?: unknown };
  const keys = new Set(Array.isArray(q.country) ? q.country.filter((k): k is string => typeof k === 'string') : []);
  const ids: unknown[] = [];
  if (listing === 'competitions') ids.push((doc.location as { countryId?: unknown } | null)?.countryId);
  else if (listing === 'clubs') ids.push(...(Array.isArray(q.countryIds) ? (q.countryIds as unknown[]) : []));
  else ids.push((doc.country as { id?: unknown } | null)?.id);
  for (const id of ids) if (typeof id === 'number') keys.add(countryIdKey(id));
  return [...keys];
}

/** JSON with object keys sorted, Dates as ISO strings: the same value always gives the same text. */
export function stableJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
