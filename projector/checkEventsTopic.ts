import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import {
  describeStarts,
  fetchCommittedOffsets,
  readTopicRetention,
  refuseReplayFromStart,
  startsPastCommitted,
} from '../services/kafka/index.ts';
import type { Logger } from '../services/logger.ts';
import { ensureMeta } from '../services/mongo/index.ts';
import { recordTopicRetention } from './metrics/refreshTopicRetention.ts';
import type { ProjectorMetrics } from './metrics/projectorMetrics.ts';
import { liveGroupId } from './consume/liveGroupId.ts';

/**
 * The projector's start-up check of the events topic. Settings that let the broker delete
 * events are a warning (and a gauge the alerts read): nothing is lost yet. A topic that has lost
 * its first events stops a first projection (the bootstrap, or the live consumer with no
 * committed offset), which would build a read model without them. A running read model whose
 * committed offsets the deletion overtook goes on, with an error naming what it never applied.
 */
export async function checkEventsTopic(deps: {
  admin: Admin;
  db: Db;
  topic: string;
  groupId: string;
  metrics: ProjectorMetrics;
  logger: Logger;
}): Promise<void> {
  const retention = await readTopicRetention(deps.admin, deps.topic);
  recordTopicRetention(deps.metrics, retention);
  if (retention.settingProblems.length > 0)
    deps.logger.warn(
      { topic: deps.topic, problems: retention.settingProblems },
      'the events topic does not keep every event: a rebuild after the broker deletes some would be refused (docs/operating.md, "Retention")',
    );
  const { generation } = await ensureMeta(deps.db);
  const committed = await fetchCommittedOffsets(deps.admin, liveGroupId(deps.groupId, generation), deps.topic);
  if (![...committed.values()].some((offset) => offset >= 0))
    refuseReplayFromStart(retention, 'projecting the events topic into an empty read model');
  const skipped = startsPastCommitted(retention, committed);
  if (skipped.length > 0)
    deps.logger.error(
      { topic: deps.topic, partitions: skipped },
      `the broker deleted events this read model never applied (${describeStarts(skipped)}); the read model lacks them until a rebuild from a complete topic`,
    );
}
