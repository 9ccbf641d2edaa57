export { connectMongo, type MongoConnection } from './connectMongo.ts';
export {
  META_COLLECTION,
  bumpVersions,
  claimBootstrap,
  dropTallies,
  collectionName,
  ensureMeta,
  readMeta,
  recordCurrentAt,
  releaseBootstrap,
  switchGeneration,
  type SwitchOptions,
  type ReadModelMeta,
} from './readModelMeta.ts';
export { readRebuildProgress, recordRebuildProgress, type RebuildProgress } from './rebuildProgress.ts';
export { beatBuild, claimBuild, databaseNow, giveBackBuild, readBuild, releaseBuild, type BuildClaim } from './buildClaim.ts';
export { abandonedTransactionGoneWithinMs, readTransactionLifetimeLimit } from './transactionLifetime.ts';
