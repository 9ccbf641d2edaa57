export { connectMongo, type MongoConnection } from './connectMongo.ts';
