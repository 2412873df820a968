import type { Knex } from 'knex';

/**
 * The fiscal append trigger's statements run on generic plans. PL/pgSQL prepares each statement of
 * a function once per session, but PostgreSQL keeps planning one anew while it judges a custom plan
 * cheaper, as it does for `id = any(ids)` and the pending rows of a chain: under the pipeline
 * benchmark, planning the trigger's delete and reads cost about 0.15 ms per creation, more than
 * running them. Each of its statements finds its rows by an index whatever the values, so the
 * generic plan is the right one every time.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter function fiscal_pending_append() set plan_cache_mode = force_generic_plan');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter function fiscal_pending_append() reset plan_cache_mode');
}
