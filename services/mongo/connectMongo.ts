import { MongoClient, type Db } from 'mongodb';

export interface MongoConnection {
  client: MongoClient;
  db: Db;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Connects and proves the server answers before returning, so start-up fails loudly. */
export async function connectMongo(url: string, dbName: string): Promise<MongoConnection> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, appName: 'federation-read' });
  await client.connect();
  const db = client.db(dbName);
  const ping = async (): Promise<boolean> => {
    try {
      return (await db.command({ ping: 1 }, { timeoutMS: 2000 })).ok === 1;
    } catch {
      return false;
    }
  };
  if (!(await ping())) throw new Error(`MongoDB at ${url} does not answer a ping`);
  return { client, db, ping, close: () => client.close() };
}
