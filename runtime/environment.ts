import { type Config, loadConfig, parseAppKey } from '../domain/shared/config.js';
import { localAppKey } from './app-key.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

export interface RuntimeEnvironment {
  /** Config with `databaseUrl` and `appKey` always set. */
  config: Config;
  /** True when DATABASE_URL was unset and the embedded PostgreSQL serves this process. */
  embedded: boolean;
  /** Stops the embedded database if this process started it. */
  stop(): Promise<void>;
}

/**
 * Loads and checks the configuration; without DATABASE_URL, starts (or joins) the embedded
 * PostgreSQL under DATA_DIR; without APP_KEY outside production, uses the one kept in DATA_DIR.
 */
export async function openEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<RuntimeEnvironment> {
  const config = loadConfig(env);
  if (!config.appKey) config.appKey = parseAppKey(localAppKey(config.dataDir));
  if (config.databaseUrl) return { config, embedded: false, stop: async () => {} };
  const local = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
  config.databaseUrl = local.url;
  return { config, embedded: true, stop: () => local.stop() };
}

/** Prints configuration problems one per line and exits, instead of a stack trace. */
export function exitOnConfigError(err: unknown): never {
  const problems = (err as { problems?: string[] }).problems;
  if (problems) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}
