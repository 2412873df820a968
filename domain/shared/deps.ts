import type { Knex } from 'knex';
import type { PgBoss } from 'pg-boss';
import type { SchemaRegistry } from '../../schemas/registry.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

/** What operations, routes and job handlers get from the composition root (domain/container.ts). */
export interface Deps {
  config: Config;
  db: Knex;
  boss: PgBoss;
  schemas: SchemaRegistry;
  clock: Clock;
  log: Logger;
}
