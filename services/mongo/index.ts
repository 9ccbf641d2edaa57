export { connectMongo, type MongoConnection } from './connectMongo.ts';
export { META_COLLECTION, bumpVersions, collectionName, ensureMeta, readMeta, recordCurrentAt, switchGeneration, type ReadModelMeta } from './readModelMeta.ts';
