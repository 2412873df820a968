import type { Knex } from 'knex';
import type { DependencyContainer } from 'tsyringe';
import { buildContainer, resolveDeps, startDeps, stopDeps } from '../../domain/container.js';
import { loadConfig } from '../../domain/shared/config.js';
import { createDatabase } from '../../domain/shared/database.js';
import type { Deps } from '../../domain/shared/deps.js';
import './net.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

export interface TestDeps {
  deps: Deps;
  /**
   * The schema owner's connection, outside row-level security: for seeding and for reading what
   * an operation wrote. The service itself only ever runs as the application role.
   */
  ownerDb: Knex;
  database: TestDatabase;
  close(): Promise<void>;
}

/** Deps on a fresh database, built by the same composition root as the processes. */
export interface TestDepsOptions {
  env?: Record<string, string>;
  /** Replace single tokens (a fake provider, a schema registry with test schemas). */
  override?: (container: DependencyContainer) => void;
}

export async function createTestDeps(options: TestDepsOptions = {}): Promise<TestDeps> {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`,
    // The simulators stand in for Google, KYC and production e-invoicing; a test turns them off with 'false'.
    ENABLE_SIMULATORS: 'true',
    ...options.env,
    DATABASE_URL: database.url,
  });
  const container = buildContainer(config, { role: 'web' });
  options.override?.(container);
  const deps = resolveDeps(container);
  await startDeps(deps);
  const ownerDb = createDatabase(database.url, { poolMax: 3, applicationName: 'einvoice-test-owner' });
  return {
    deps,
    ownerDb,
    database,
    async close() {
      await stopDeps(deps, { graceful: false, timeout: 2000 });
      await ownerDb.destroy();
      await database.drop();
    },
  };
}
