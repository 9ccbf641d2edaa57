import type { Db } from 'mongodb';
import { META_COLLECTION } from './readModelMeta.ts';

/**
 * The claim of the one process that builds the next generation of the read model (a projector
 * upgrading the format, an operator's rebuild, a bootstrap), kept on the meta document:
 * `{ build: { format, from, owner, heartbeatAt } }`. Two builders of one generation would clear
 * and fill the same collections under each other, so a rebuild needs the claim to start and to
 * switch. The holder refreshes `heartbeatAt` while it works; a claim whose heartbeat is older than
 * the caller's `staleAfterMs` belongs to a process that died, and the next builder takes it over.
 * Builders pass the database's clock as `now` (databaseNow), never their host's.
 * The switch of generations removes it (switchGeneration).
 */
export interface BuildClaim {
  /** The format being built. */
  format: number;
  /** The generation it replaces. */
  from: number;
  owner: string;
  heartbeatAt: Date;
}

interface ClaimDocument {
  _id: string;
  generation: number;
  build?: BuildClaim;
}

const CURRENT = 'current';

/**
 * Owners whose process is stopping (giveBackBuild), and the claims of each owner on their way to
 * the server. A stop gives the claim back while the build may still be taking it: a claim that
 * landed after the release would stand, with a fresh heartbeat, for the whole `staleAfterMs`, and
 * turn the next start's build away (the bootstrap would step aside and project the log live).
 */
const stopping = new Set<string>();
const sending = new Map<string, Set<Promise<unknown>>>();

/**
 * Claims the build that replaces generation `from` for `owner`: true when no live claim of
 * another process stands (none, a stale one, or this owner's own); false for an owner whose
 * process is stopping.
 */
export async function claimBuild(db: Db, claim: Omit<BuildClaim, 'heartbeatAt'>, now: Date, staleAfterMs: number): Promise<boolean> {
  if (stopping.has(claim.owner)) return false;
  const stale = new Date(now.getTime() - staleAfterMs);
  const sent = db.collection<ClaimDocument>(META_COLLECTION).updateOne(
    {
      _id: CURRENT,
      generation: claim.from,
      $or: [{ build: { $exists: false } }, { 'build.heartbeatAt': { $lt: stale } }, { 'build.owner': claim.owner }],
    },
    { $set: { build: { ...claim, heartbeatAt: now } } },
  );
  const pending = sending.get(claim.owner) ?? new Set<Promise<unknown>>();
  sending.set(claim.owner, pending.add(sent));
  try {
    return (await sent).matchedCount === 1;
  } finally {
    pending.delete(sent);
    if (pending.size === 0) sending.delete(claim.owner);
  }
}

/** Keeps the claim alive; false once it is no longer this owner's (taken over after a stall). */
export async function beatBuild(db: Db, owner: string, now: Date): Promise<boolean> {
  const result = await db
    .collection<ClaimDocument>(META_COLLECTION)
    .updateOne({ _id: CURRENT, 'build.owner': owner }, { $set: { 'build.heartbeatAt': now } });
  return result.matchedCount === 1;
}

/** Gives the claim back (a build that failed before its switch; a stopping process uses giveBackBuild). */
export async function releaseBuild(db: Db, owner: string): Promise<void> {
  await db.collection<ClaimDocument>(META_COLLECTION).updateOne({ _id: CURRENT, 'build.owner': owner }, { $unset: { build: '' } });
}

/**
 * Gives the claim back for good, as this process stops: after any claim of `owner` still on its
 * way has landed, and refusing every later one, so that nothing the stopping process still runs
 * can take it again.
 */
export async function giveBackBuild(db: Db, owner: string): Promise<void> {
  stopping.add(owner);
  const pending = sending.get(owner);
  if (pending) await Promise.allSettled([...pending]);
  await releaseBuild(db, owner);
}

/**
 * The database's own clock, from its `hello` reply: every builder stamps and judges heartbeats by
 * it, so a host whose clock is off by minutes neither takes a live claim over as stale nor keeps
 * a dead one looking fresh. The host's clock only where the server does not say.
 */
export async function databaseNow(db: Db): Promise<Date> {
  const hello = await db.admin().command({ hello: 1 });
  return hello.localTime instanceof Date ? hello.localTime : new Date();
}

/** The standing claim, if any (`npm run status`). */
export async function readBuild(db: Db): Promise<BuildClaim | null> {
  const doc = await db.collection<ClaimDocument>(META_COLLECTION).findOne({ _id: CURRENT });
  return doc?.build ?? null;
}
