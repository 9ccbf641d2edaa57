import { randomUUID } from 'node:crypto';
import type { Admin } from 'kafkajs';
import { countTopicMessages, fetchCommittedOffsets } from '../../services/kafka/index.ts';
import { claimBootstrap, ensureMeta, collectionName, giveBackBuild, releaseBootstrap } from '../../services/mongo/index.ts';
import type { ProjectorContext } from '../projectorContext.ts';
import { BuildClaimHeld } from '../rebuild/holdBuildClaim.ts';
import { rebuildReadModel } from '../rebuild/rebuildReadModel.ts';
import { liveGroupId } from '../consume/liveGroupId.ts';
import { describeProgress } from './describeProgress.ts';

export interface BootstrapOptions {
  /** A topic holding fewer events is projected by the live consumer as usual; 0 never bootstraps. */
  readonly minEvents: number;
  /** A human progress line, every `everyMs` (npm start prints it). */
  readonly report?: (line: string) => void;
  readonly everyMs?: number;
  /** Called once this instance holds the claim, with what gives it back (a stop before the switch). */
  readonly onClaim?: (release: () => Promise<void>) => void;
}

/**
 * A projector that finds an empty read model in front of a long event log (a first start, the
 * demo) fills it the way a rebuild does, into the next generation with the API's indexes built
 * at the end, which is much faster than the live path (measured: see docs/performance.md, The
 * projector's writes); the API serves the empty generation until the switch. One instance
 * claims it (atomically, in the meta document); the others start as usual and follow the
 * switch. Returns whether it ran.
 */
export async function bootstrapFromTopic(context: ProjectorContext, options: BootstrapOptions): Promise<boolean> {
  if (options.minEvents <= 0) return false;
  const { generation } = await ensureMeta(context.db);
  const admin = context.kafka.admin();
  await admin.connect();
  let total: number;
  try {
    if (!(await isUntouched(admin, context, generation))) return false;
    total = await countTopicMessages(admin, context.topic);
  } finally {
    await admin.disconnect();
  }
  if (total < options.minEvents || !(await claimBootstrap(context.db, generation))) return false;
  // A stop before the switch, or a step aside, gives back both claims (the build claim only if it
  // is this bootstrap's), so that the next start bootstraps at once. A stop can come while the
  // rebuild below is still taking the build claim: giveBackBuild waits for that and refuses it after.
  const owner = `bootstrap-${randomUUID()}`;
  const giveBack = async (): Promise<void> => {
    await giveBackBuild(context.db, owner);
    await releaseBootstrap(context.db, generation);
  };
  options.onClaim?.(giveBack);

  const started = performance.now();
  let lastReport = 0;
  let reports = 0;
  const report = (applied: number, force = false): void => {
    const now = performance.now();
    if (!force && now - lastReport < (options.everyMs ?? 2_000)) return;
    lastReport = now;
    const line = `projecting the event log into an empty read model: ${describeProgress(applied, total, now - started)}`;
    // The log gets every 15th line (and the first and last): the terminal has them all.
    if (force || reports++ % 15 === 0) context.logger.info({ applied, total }, line);
    options.report?.(line);
  };
  report(0, true);
  // After the replay the time left is the derivation's and the index build's: each step is said.
  const stage = (what: string): void => {
    const line = `projecting the event log into an empty read model: ${what} (${Math.round((performance.now() - started) / 1000)} s so far)`;
    context.logger.info({ total }, line);
    options.report?.(line);
  };
  try {
    const result = await rebuildReadModel({
      ...context,
      dropAfterMs: 0,
      claim: { owner },
      onProgress: ({ applied }) => report(applied),
      onStage: stage,
    });
    report(result.messages, true);
    return true;
  } catch (error) {
    // A bootstrap that stopped (its claim taken over, no progress, a failure) gives both claims back, so the next start bootstraps again.
    await giveBack().catch(() => undefined);
    if (!(error instanceof BuildClaimHeld)) throw error;
    // An operator's rebuild fills the next generation already: follow its switch like the other instances.
    context.logger.warn({ err: error }, 'not bootstrapping: another process is building the next generation');
    return false;
  }
}

/** No event of the topic applied yet, and nothing in the live generation's collections. */
async function isUntouched(admin: Admin, context: ProjectorContext, generation: number): Promise<boolean> {
  const topics = await admin.listTopics();
  if (!topics.includes(context.topic)) return false;
  const committed = await fetchCommittedOffsets(admin, liveGroupId(context.groupId, generation), context.topic);
  if ([...committed.values()].some((offset) => offset >= 0)) return false;
  for (const listing of ['competitions', 'dancers', 'clubs'] as const) {
    if ((await context.db.collection(collectionName(listing, generation)).findOne({}, { projection: { _id: 1 } })) !== null) return false;
  }
  return true;
}
