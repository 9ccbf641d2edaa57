export { createKafka } from './createKafka.ts';
export { ensureTopics } from './ensureTopics.ts';
export { probeKafka } from './probeKafka.ts';
export { countTopicMessages } from './countTopicMessages.ts';
export { fetchCommittedOffsets } from './fetchCommittedOffsets.ts';
