export { changeCollections, LISTING_OF, RESOURCE_TYPE_OF, SEQUENCE_ID, type ChangeCollections } from './changeCollections.ts';
export type { ChangeRecord } from './changeRecord.ts';
export { formatCursor, parseCursor, type ChangePosition } from './changeCursor.ts';
export { publicVersion, stableJson, type PublicVersion } from './publicVersion.ts';
export { appendChanges, announceIntents, recordIntents, resourceKey, type ChangeLogTarget, type ResourceKey } from './appendChanges.ts';
export { readChangesAfter, readFeedBounds, type FeedBounds } from './readChanges.ts';
export { trimChanges, type ChangeRetention } from './trimChanges.ts';
