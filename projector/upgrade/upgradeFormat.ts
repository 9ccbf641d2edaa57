import { claimBuild, databaseNow, ensureMeta, type ReadModelMeta } from '../../services/mongo/index.ts';
import { READ_MODEL_FORMAT } from '../../services/readModel/readModelFormat.ts';
import { StartRefused } from '../../services/runMain.ts';
import type { ProjectorContext } from '../projectorContext.ts';
import type { BuildClaimOptions } from '../rebuild/holdBuildClaim.ts';
import { rebuildReadModel } from '../rebuild/rebuildReadModel.ts';
import { recordProgress } from '../rebuild/recordProgress.ts';

export interface UpgradeOptions extends BuildClaimOptions {
  /** This instance, as the build claim names it. */
  owner: string;
  /** How often an instance that does not hold the claim looks again. */
  pollMs?: number;
  report?: (line: string) => void;
}

/**
 * Returns the live meta once its generation is of this projector's format. A model of an older
 * format is rebuilt in the newer one as a shadow generation (the rebuild path, with its progress
 * on the rebuild gauges and in `npm run status`) while the API keeps serving the old one, and
 * switched to when its replay has caught up with the topic; the live consumer then continues from
 * where the replay stopped. One process builds it, under the build claim on the meta document
 * that it keeps alive (an operator's rebuild holds the same claim); the others wait for the
 * switch, and take the claim over if it goes stale. A model
 * of a newer format is refused: this projector is older than the one that built it.
 */
export async function upgradeFormat(context: ProjectorContext, options: UpgradeOptions): Promise<ReadModelMeta> {
  const format = context.format ?? READ_MODEL_FORMAT;
  context.metrics.readModelFormat.set({ of: 'code' }, format);
  for (let waiting = false; ; waiting = true) {
    const meta = await ensureMeta(context.db, format);
    context.metrics.readModelFormat.set({ of: 'live' }, meta.format);
    if (meta.format === format) {
      context.metrics.formatUpgrade.reset();
      return meta;
    }
    if (meta.format > format) {
      throw new StartRefused(`the read model is of format ${meta.format}, newer than this projector's ${format}: run the newer projector`);
    }
    const claim = { format, from: meta.generation, owner: options.owner };
    if (await claimBuild(context.db, claim, await databaseNow(context.db), options.staleAfterMs ?? 60_000)) {
      context.metrics.formatUpgrade.reset();
      context.metrics.formatUpgrade.set({ state: 'building' }, 1);
      await rebuildInFormat(context, options, meta);
    } else {
      context.metrics.formatUpgrade.reset();
      context.metrics.formatUpgrade.set({ state: 'waiting' }, 1);
      if (!waiting) options.report?.(`read model of format ${meta.format}: another process builds its next generation; waiting`);
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 2_000));
    }
  }
}

async function rebuildInFormat(context: ProjectorContext, options: UpgradeOptions, meta: ReadModelMeta): Promise<void> {
  const format = context.format ?? READ_MODEL_FORMAT;
  const { db, logger, metrics } = context;
  logger.info({ from: meta.format, to: format, generation: meta.generation }, 'upgrading the read model to the format of this projector');
  options.report?.(`read model of format ${meta.format}: rebuilding it in format ${format} while the API serves the old one`);
  const progress = recordProgress(db, metrics, logger, { line: (ratio) => options.report?.(`upgrade: ${(100 * ratio).toFixed(1)} %`) });
  try {
    const result = await rebuildReadModel({ ...context, returnAtSwitch: true, claim: options });
    await progress.finished();
    logger.info({ ...result, format }, 'read model upgraded');
  } finally {
    progress.stop();
  }
}
