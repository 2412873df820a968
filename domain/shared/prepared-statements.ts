import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * Named (server-side prepared) statements for the hottest queries. PostgreSQL plans an unnamed
 * statement anew on every execution; for the writes of one invoice creation that planning costs
 * more than running them (the invoice-and-lines insert: about 2 ms of planning for 2 ms of work,
 * the job inserts half a millisecond each). A named statement is parsed once per connection and,
 * after five executions, runs on a cached generic plan: the same results, since row-level
 * security reads the tenant at execution time, not at planning.
 *
 * Only queries marked with `prepared(query, name)` are named, each as `name_<hash of its SQL>`, so
 * two texts never share a name and their number per connection stays that of the marked queries.
 * Their results must name their columns (no `*`): PostgreSQL refuses to run a prepared statement
 * whose result columns changed ("cached plan must not change result type"), which a migration
 * adding a column would do to a `select *` in the processes still running.
 *
 * DATABASE_PREPARED_STATEMENTS=false runs them unnamed, for poolers in transaction mode that cannot
 * follow named statements across server connections (PgBouncer before 1.21, or without
 * `max_prepared_statements`).
 */
export function prepared<Q extends { options(options: Readonly<Record<string, unknown>>): Q }>(
  query: Q,
  name: string,
): Q {
  return query.options({ [PREPARE]: name });
}

const PREPARE = 'einvoicePrepare';

interface CompiledQuery {
  sql: string;
  options?: Record<string, unknown>;
}

interface PgClient {
  _query(connection: unknown, obj: CompiledQuery): Promise<unknown>;
}
type PgClientClass = new (...args: never[]) => PgClient;

/** knex's PostgreSQL client (the class `client: 'pg'` stands for). */
const KnexPgClient = createRequire(import.meta.url)('knex/lib/dialects/postgres/index.js') as PgClientClass;

/**
 * The knex client class of the application's pools: knex's PostgreSQL client, which turns the
 * marks of `prepared` into statement names (or drops them when `enabled` is false). A class, not a
 * patched instance: knex builds each transaction's client from the class's prototype.
 */
export function preparingClient(enabled: boolean): PgClientClass {
  return class PreparingPgClient extends KnexPgClient {
    override _query(connection: unknown, obj: CompiledQuery): Promise<unknown> {
      const mark = obj.options?.[PREPARE];
      if (typeof mark !== 'string') return super._query(connection, obj);
      const { [PREPARE]: _, ...options } = obj.options ?? {};
      const named = enabled ? { ...options, name: statementName(mark, obj.sql) } : options;
      return super._query(connection, { ...obj, options: named });
    }
  };
}

const names = new Map<string, string>();

function statementName(mark: string, sql: string): string {
  const key = `${mark}\u0000${sql}`;
  let name = names.get(key);
  if (!name) {
    name = `${mark}_${createHash('sha256').update(sql).digest('hex').slice(0, 16)}`;
    // the marked queries have a handful of texts each; the bound only guards against a mistake
    if (names.size < 1000) names.set(key, name);
  }
  return name;
}

/** At most this many of pg-boss's texts are named; any beyond (none are expected) run unnamed. */
const BOSS_TEXTS_NAMED = 300;
const bossNames = new Map<string, string>();

/**
 * pg-boss's own queries with parameters (the worker's fetches and completions, the supervisor's
 * passes) as named statements too: a fetch over a capped queue cost PostgreSQL more to plan than to
 * run. pg-boss inlines only its queue names and fixed states in its SQL, so its texts number a few
 * per queue. Its results name their columns. Installed on the instance's database before `start()`.
 */
export function prepareBossStatements(boss: { getDb(): unknown }): void {
  const db = boss.getDb() as {
    executeSql?: (text: string, values?: unknown[]) => Promise<unknown>;
    pool?: { query(config: { name: string; text: string; values: unknown[] }): Promise<unknown> };
  };
  const execute = db.executeSql?.bind(db);
  if (!execute) return;
  db.executeSql = (text, values) => {
    const name = values?.length && db.pool ? bossStatementName(text) : null;
    if (!name) return execute(text, values);
    // Some of pg-boss's results are a job row's `*`: a pg-boss upgrade that changes the job table
    // fails such a statement on the connections that prepared it; those run it unnamed.
    return db
      .pool!.query({ name, text, values: values! })
      .catch((err: { code?: string; message?: string }) =>
        err.code === '0A000' && /cached plan must not change result type/.test(err.message ?? '')
          ? execute(text, values)
          : Promise.reject(err),
      );
  };
}

function bossStatementName(text: string): string | null {
  let name = bossNames.get(text);
  if (!name && bossNames.size < BOSS_TEXTS_NAMED) {
    name = `pgboss_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    bossNames.set(text, name);
  }
  return name ?? null;
}
