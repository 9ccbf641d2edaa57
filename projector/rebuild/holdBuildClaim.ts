import { randomUUID } from 'node:crypto';
import { beatBuild, claimBuild, databaseNow, readBuild, releaseBuild } from '../../services/mongo/index.ts';
import { READ_MODEL_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { StartRefused } from '../../services/runMain.ts';
import type { ProjectorContext } from '../projectorContext.ts';

export interface BuildClaimOptions {
  /** This process, as the claim names it (`npm run status` shows it); a random one by default. */
  owner?: string;
  /** A claim whose heartbeat is older (by the database's clock) belongs to a process that died: far above any pause of a live one. */
  staleAfterMs?: number;
  heartbeatMs?: number;
  /** Told when the claim was taken over (this process stalled past `staleAfterMs`): it must stop writing. */
  onClaimLost?: () => void;
}

/** Another process holds the build claim: this build is refused (a bootstrap steps aside instead). */
export class BuildClaimHeld extends StartRefused {
  override name = 'BuildClaimHeld';
}

/** The build claim was taken over while this process built: it stops, leaving the generation to the new holder. */
export class BuildClaimLost extends Error {
  override name = 'BuildClaimLost';
}

export interface HeldClaim {
  readonly owner: string;
  /** Aborted (with a BuildClaimLost) once the claim is no longer this process's: the build must stop writing. */
  readonly lost: AbortSignal;
  /** Gives the claim back (a build that failed before its switch). */
  release(): Promise<void>;
  /** Stops the heartbeat: at the switch, which removes the claim, or when the build ends. */
  stop(): void;
}

/**
 * Claims the build that replaces generation `from` (services/mongo/buildClaim.ts) and keeps the
 * claim alive until `stop()`, by the database's clock. Refused when another process holds it:
 * two builders of one generation would clear and fill the same collections under each other.
 */
export async function holdBuildClaim(context: ProjectorContext, from: number, options: BuildClaimOptions = {}): Promise<HeldClaim> {
  const { db, logger } = context;
  const owner = options.owner ?? `rebuild-${randomUUID()}`;
  const claim = { format: context.format ?? READ_MODEL_FORMAT, from, owner };
  if (!(await claimBuild(db, claim, await databaseNow(db), options.staleAfterMs ?? 60_000))) {
    const standing = await readBuild(db);
    const who = standing
      ? `${standing.owner}, building format ${standing.format} from generation ${standing.from}`
      : 'or generation moved on';
    throw new BuildClaimHeld(`another process is building the next generation of the read model (${who}); wait for it, see npm run status`);
  }
  const lost = new AbortController();
  const heartbeat = setInterval(() => {
    databaseNow(db)
      .then((now) => beatBuild(db, owner, now))
      .then(
        (held) => {
          if (held) return;
          clearInterval(heartbeat);
          logger.error({ owner }, 'the build claim was taken over by another process; this one stops');
          lost.abort(new BuildClaimLost(`the build claim of ${owner} was taken over by another process; this build stopped`));
          options.onClaimLost?.();
        },
        (error: unknown) => logger.warn({ err: error }, 'could not renew the build claim'),
      );
  }, options.heartbeatMs ?? 5_000);
  return { owner, lost: lost.signal, release: () => releaseBuild(db, owner), stop: () => clearInterval(heartbeat) };
}
