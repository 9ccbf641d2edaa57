export { AGGREGATES_PER_MILLION_EVENTS, createHistory, planHistory } from './createHistory.ts';
export type { HistoryOptions, HistoryPlan } from './createHistory.ts';
export { publishHistory, toKafkaMessage } from './publishToKafka.ts';
export type { PublishOptions, PublishResult } from './publishToKafka.ts';
export { writeNdjson } from './writeNdjson.ts';
export type { WriteNdjsonOptions } from './writeNdjson.ts';
