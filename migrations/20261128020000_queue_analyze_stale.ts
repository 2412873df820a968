import type { Knex } from 'knex';

/**
 * `queue_analyze_stale(schema)` analyzes the tables of pg-boss's schema whose planner statistics
 * are stale by autovacuum's own rule (more rows changed since their last ANALYZE than
 * `autovacuum_analyze_threshold` + `autovacuum_analyze_scale_factor` × their rows), and returns
 * their names. The worker calls it every few seconds (QUEUE_ANALYZE_SECONDS); see
 * domain/shared/queue-statistics.ts for why.
 *
 * One process at a time (a transaction-level advisory lock: the others skip that pass), and an
 * ANALYZE never waits more than a second for its lock, so it cannot hold up pg-boss's own DDL.
 * Statistics target 10: a sample of 3,000 rows, which tells the planner how many jobs each queue
 * and each state holds (all its plans need); the default sample of 30,000 rows read the whole
 * table of a burst, 130-380 ms per ANALYZE against 30 ms. It
 * runs as its caller: the database's owner, through pg-boss's connection (another role would see
 * PostgreSQL skip the tables it does not own, with a warning).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function queue_analyze_stale(queue_schema text) returns setof text language plpgsql
    set lock_timeout = '1s' set default_statistics_target = 10 as $$
    declare
      stale record;
    begin
      if not pg_try_advisory_xact_lock(hashtextextended('einvoice:queue-analyze', 0)) then
        return;
      end if;
      for stale in
        select format('%I.%I', s.schemaname, s.relname) as name
        from pg_stat_all_tables s
        join pg_class c on c.oid = s.relid
        where s.schemaname = queue_schema and c.relkind = 'r'
          and s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::bigint
            + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)
        order by s.relname
      loop
        execute 'analyze ' || stale.name;
        return next stale.name;
      end loop;
    end $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function queue_analyze_stale(text)');
}
