export { connectMongo, type MongoConnection } from './connectMongo.ts';
export { META_COLLECTION, bumpVersions, collectionName, readMeta, switchGeneration, type ReadModelMeta } from './readModelMeta.ts';
