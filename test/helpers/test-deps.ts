import type { DependencyContainer } from 'tsyringe';
import { buildContainer, resolveDeps, startDeps, stopDeps } from '../../domain/container.js';
import { loadConfig } from '../../domain/shared/config.js';
import type { Deps } from '../../domain/shared/deps.js';
import './net.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

export interface TestDeps {
  deps: Deps;
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
    ...options.env,
    DATABASE_URL: database.url,
  });
  const container = buildContainer(config, { role: 'web' });
  options.override?.(container);
  const deps = resolveDeps(container);
  await startDeps(deps);
  return {
    deps,
    database,
    async close() {
      await stopDeps(deps, { graceful: false, timeout: 2000 });
      await database.drop();
    },
  };
}
