import knex, { type Knex } from 'knex';
import pg from 'pg';

// `date` columns stay 'YYYY-MM-DD' strings (document dates, no time zone); counts become numbers.
// `numeric` stays a string for decimal.js: money never passes through a JS float.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Knex;

export interface DatabaseOptions {
  poolMax?: number;
  applicationName?: string;
  /** Where knex's own warnings go (pool errors, deprecations); silent when unset. */
  log?: { warn(message: string): void };
}

export function createDatabase(url: string, options: DatabaseOptions = {}): Knex {
  return knex({
    client: 'pg',
    connection: { connectionString: url, application_name: options.applicationName ?? 'einvoice' },
    pool: { min: 0, max: options.poolMax ?? 10 },
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
