import { fileURLToPath } from 'node:url';
import { createBoss } from '../domain/shared/boss.js';
import { createDatabase } from '../domain/shared/database.js';
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
    return { applied, queues: 'ready' };
  } finally {
    await db.destroy();
  }
}
