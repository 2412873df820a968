import type { Knex } from 'knex';
import type { PgBoss } from 'pg-boss';
import type { SchemaRegistry } from '../../schemas/registry.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

/**
 * What operations, routes and job handlers get from the composition root (domain/container.ts).
 * The kernel declares its own services here; each context adds its ports (mailer, providers...) to
 * this interface from its own file by declaration merging (`declare module '../shared/deps.js'`),
 * so that domain/shared never imports a context.
 */
export interface Deps {
  config: Config;
  db: Knex;
  /**
   * Rate-limit and login-failure counters: a separate pool with `synchronous_commit = off`, so that
   * counting a request does not wait for a disk flush (a crash may forget a few counts, no more).
   */
  counters: Knex;
  boss: PgBoss;
  schemas: SchemaRegistry;
  clock: Clock;
  log: Logger;
}
