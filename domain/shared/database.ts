import knex, { type Knex } from 'knex';
import pg from 'pg';
import { preparingClient } from './prepared-statements.js';

// `date` columns stay 'YYYY-MM-DD' strings (document dates, no time zone); counts become numbers.
// `numeric` stays a string for decimal.js: money never passes through a JS float.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Knex;

/**
 * The role the application's queries run as: it owns no table and cannot bypass row-level security
 * (migrations/20261122001200_isolate_tenants.ts). The database user of DATABASE_URL owns the schema
 * and runs the migrations; the service's pools switch to this role on every new connection.
 */
export const APP_ROLE = 'einvoice_app';

export interface DatabaseOptions {
  poolMax?: number;
  applicationName?: string;
  /** Run every query as this role (the application pools); unset for the migrations' owner pool. */
  role?: string;
  /**
   * `false` for a pool whose writes may be lost in a crash without harm (rate-limit counters):
   * commits do not wait for the WAL flush. Never for business data.
   */
  synchronousCommit?: boolean;
  /**
   * Run the queries marked `prepared` as named statements (prepared-statements.ts): the service's
   * pools, unless DATABASE_PREPARED_STATEMENTS is false (a pooler that cannot follow them). Unset
   * (the migrations' and the owner's pools): unnamed. Unmarked queries are never named.
   */
  preparedStatements?: boolean;
  /** Where knex's own warnings go (pool errors, deprecations); silent when unset. */
  log?: { warn(message: string): void };
}

export function createDatabase(url: string, options: DatabaseOptions = {}): Knex {
  return knex({
    client: preparingClient(options.preparedStatements ?? false) as unknown as typeof knex.Client,
    connection: { connectionString: url, application_name: options.applicationName ?? 'einvoice' },
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      ...(options.role || options.synchronousCommit === false
        ? { afterCreate: sessionSetup(options.role, options.synchronousCommit ?? true) }
        : {}),
    },
    acquireConnectionTimeout: 10_000,
    log: {
      warn: (message: string) => options.log?.warn(message),
      error: (message: string) => options.log?.warn(message),
      deprecate: (message: string) => options.log?.warn(message),
      debug: () => {},
    },
  });
}

/** Pings the database, failing after `timeoutMs` instead of waiting for the pool. */
export async function pingDatabase(db: Knex, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = db
    .raw('select 1')
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type PoolCallback = (err: Error | null, connection: pg.Client) => void;

function sessionSetup(role: string | undefined, synchronousCommit: boolean) {
  const statements = [role ? `set role ${role}` : '', synchronousCommit ? '' : 'set synchronous_commit = off']
    .filter(Boolean)
    .join('; ');
  return (connection: pg.Client, done: PoolCallback) => {
    connection.query(statements).then(
      () => done(null, connection),
      (err: Error) => done(err, connection),
    );
  };
}
