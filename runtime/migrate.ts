import { fileURLToPath } from 'node:url';
import { createBoss } from '../domain/shared/boss.js';
import { APP_ROLE, createDatabase } from '../domain/shared/database.js';
import { ensureQueues } from '../domain/shared/queues.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface MigrationResult {
  applied: string[];
  queues: 'ready';
}

/** Applies the knex migrations, then installs pg-boss and every queue with its dead-letter queue. */
export async function migrateDatabase(url: string): Promise<MigrationResult> {
  const db = createDatabase(url, { poolMax: 2, applicationName: 'einvoice-migrate' });
  try {
    const [, applied] = (await db.migrate.latest({ directory: MIGRATIONS_DIR, loadExtensions: ['.js'] })) as [
      number,
      string[],
    ];
    const boss = createBoss(url, 'migrate');
    boss.on('error', () => {});
    await boss.start();
    try {
      await ensureQueues(boss);
    } finally {
      await boss.stop({ graceful: false, timeout: 5000 });
    }
    await grantQueuesToApp(db);
    return { applied, queues: 'ready' };
  } finally {
    await db.destroy();
  }
}

/**
 * The application role enqueues jobs in its own transactions (tx-jobs.ts), so it uses pg-boss's
 * tables, including the queue partitions pg-boss creates later.
 */
async function grantQueuesToApp(db: ReturnType<typeof createDatabase>): Promise<void> {
  await db.raw(`
    grant usage on schema pgboss to ${APP_ROLE};
    grant select, insert, update, delete on all tables in schema pgboss to ${APP_ROLE};
    grant usage, select on all sequences in schema pgboss to ${APP_ROLE};
    grant execute on all functions in schema pgboss to ${APP_ROLE};
    alter default privileges in schema pgboss grant select, insert, update, delete on tables to ${APP_ROLE};
    alter default privileges in schema pgboss grant usage, select on sequences to ${APP_ROLE};
  `);
}
