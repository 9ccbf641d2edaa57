export { connectMongo, type MongoConnection } from './connectMongo.ts';
export {
  META_COLLECTION,
  bumpVersions,
  claimBootstrap,
  collectionName,
  ensureMeta,
  readMeta,
  recordCurrentAt,
  releaseBootstrap,
  switchGeneration,
  type ReadModelMeta,
} from './readModelMeta.ts';
export { readRebuildProgress, recordRebuildProgress, type RebuildProgress } from './rebuildProgress.ts';
export { beatUpgrade, claimUpgrade, readUpgrade, releaseUpgrade, type UpgradeClaim } from './formatUpgrade.ts';
