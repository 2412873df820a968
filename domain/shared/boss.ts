import { PgBoss } from 'pg-boss';
import { wakeOneLoopPerNotification } from './boss-wakeups.js';
import { prepareBossStatements } from './prepared-statements.js';

export const BOSS_SCHEMA = 'pgboss';

export type BossRole = 'web' | 'worker' | 'migrate';

export interface BossOptions {
  /**
   * Seconds between the worker's supervision passes, which fail (and so retry) the jobs of a
   * worker that died: expired, or silent past their heartbeat (WORKER_SUPERVISE_SECONDS).
   */
  superviseSeconds?: number;
  /** pg-boss's queries with parameters run as named statements (DATABASE_PREPARED_STATEMENTS). */
  preparedStatements?: boolean;
}

/**
 * pg-boss per process role: the web front only sends jobs (inside its transactions), the worker
 * supervises and runs cron, and `migrate` installs or upgrades the schema.
 */
export function createBoss(url: string, role: BossRole, options: BossOptions = {}): PgBoss {
  const supervise = options.superviseSeconds ?? 60;
  const boss = new PgBoss({
    connectionString: url,
    schema: BOSS_SCHEMA,
    application_name: `einvoice-${role}-boss`,
    max: role === 'worker' ? 4 : 2,
    migrate: role === 'migrate',
    supervise: role === 'worker',
    schedule: role === 'worker',
    // The worker listens, so that a job sent on a notify queue wakes its loops at the sender's commit.
    useListenNotify: role === 'worker',
    superviseIntervalSeconds: supervise,
    monitorIntervalSeconds: supervise,
  });
  if (role === 'worker') wakeOneLoopPerNotification(boss);
  if (options.preparedStatements && role !== 'migrate') prepareBossStatements(boss);
  return boss;
}
