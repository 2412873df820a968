import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';

/**
 * The ledger's rows are refused changes twice: by their triggers (for every role, the owner
 * included) and, here, by privileges: the application role may only read and insert entries,
 * closings and anchor attempts; anchors it may also complete (their trigger allows only the one
 * pending → anchored | failed change), never delete.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    revoke update, delete, truncate on fiscal_entries, fiscal_closings, fiscal_anchor_attempts from ${APP_ROLE};
    revoke delete, truncate on fiscal_anchors from ${APP_ROLE};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    grant update, delete on fiscal_entries, fiscal_closings, fiscal_anchor_attempts to ${APP_ROLE};
    grant delete on fiscal_anchors to ${APP_ROLE};
  `);
}
