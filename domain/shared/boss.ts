import { PgBoss } from 'pg-boss';

export const BOSS_SCHEMA = 'pgboss';

export type BossRole = 'web' | 'worker' | 'migrate';

/**
 * pg-boss per process role: the web front only sends jobs (inside its transactions), the worker
 * supervises and runs cron, and `migrate` installs or upgrades the schema.
 */
export function createBoss(url: string, role: BossRole): PgBoss {
  const boss = new PgBoss({
    connectionString: url,
    schema: BOSS_SCHEMA,
    application_name: `einvoice-${role}-boss`,
    max: role === 'worker' ? 4 : 2,
    migrate: role === 'migrate',
    supervise: role === 'worker',
    schedule: role === 'worker',
  });
  return boss;
}
