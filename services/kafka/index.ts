export { createKafka } from './createKafka.ts';
export { ensureTopics } from './ensureTopics.ts';
export { probeKafka } from './probeKafka.ts';
export { countTopicMessages } from './countTopicMessages.ts';
export { fetchCommittedOffsets } from './fetchCommittedOffsets.ts';
export {
  KEEP_EVERYTHING,
  describeStarts,
  readTopicRetention,
  refuseReplayFromStart,
  retentionSettingProblems,
  startsPastCommitted,
  type PartitionStart,
  type TopicRetention,
} from './topicRetention.ts';
