import type { Db } from 'mongodb';
import { META_COLLECTION } from './readModelMeta.ts';

/**
 * The claim of the one projector instance that upgrades the live generation to a newer format
 * (projector/upgrade), kept on the meta document: `{ upgrade: { format, from, owner, heartbeatAt } }`.
 * The holder refreshes `heartbeatAt` while it rebuilds; a claim whose heartbeat is older than the
 * caller's `staleAfterMs` belongs to an instance that died, and the next one takes it over. The
 * switch of generations removes it (switchGeneration).
 */
export interface UpgradeClaim {
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
  upgrade?: UpgradeClaim;
}

const CURRENT = 'current';

/**
 * Claims the upgrade of generation `from` to `format` for `owner`: true when no live claim of
 * another instance stands (none, a stale one, or this owner's own).
 */
export async function claimUpgrade(db: Db, claim: Omit<UpgradeClaim, 'heartbeatAt'>, now: Date, staleAfterMs: number): Promise<boolean> {
  const stale = new Date(now.getTime() - staleAfterMs);
  const result = await db.collection<ClaimDocument>(META_COLLECTION).updateOne(
    {
      _id: CURRENT,
      generation: claim.from,
      $or: [{ upgrade: { $exists: false } }, { 'upgrade.heartbeatAt': { $lt: stale } }, { 'upgrade.owner': claim.owner }],
    },
    { $set: { upgrade: { ...claim, heartbeatAt: now } } },
  );
  return result.modifiedCount === 1;
}

/** Keeps the claim alive; false once it is no longer this owner's (taken over after a stall). */
export async function beatUpgrade(db: Db, owner: string, now: Date): Promise<boolean> {
  const result = await db
    .collection<ClaimDocument>(META_COLLECTION)
    .updateOne({ _id: CURRENT, 'upgrade.owner': owner }, { $set: { 'upgrade.heartbeatAt': now } });
  return result.matchedCount === 1;
}

/** Gives the claim back (an upgrade that failed or was stopped before its switch). */
export async function releaseUpgrade(db: Db, owner: string): Promise<void> {
  await db.collection<ClaimDocument>(META_COLLECTION).updateOne({ _id: CURRENT, 'upgrade.owner': owner }, { $unset: { upgrade: '' } });
}

/** The standing claim, if any (`npm run status`). */
export async function readUpgrade(db: Db): Promise<UpgradeClaim | null> {
  const doc = await db.collection<ClaimDocument>(META_COLLECTION).findOne({ _id: CURRENT });
  return doc?.upgrade ?? null;
}
