import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';

/**
 * MCP sessions (docs/decisions/0066): one row per `Mcp-Session-Id` issued by `initialize`, so that
 * any web process serves any session. Only what a later request needs is kept: the SHA-256 of the
 * session id (never the id itself), the key that opened it (a session answers that key only), its
 * tenant, the protocol version agreed, and when it was last used (idle for 3600 s, it is gone).
 *
 * Sessions are found by the hash of a secret the client holds, before anything else of the request
 * is read, as keys are: the three `mcp_*` functions are the only ways in, each raising
 * `app.caller_kind` to `system` for its own statement, each bound to the key of the request.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table mcp_sessions (
      id_hash text primary key check (id_hash ~ '^[0-9a-f]{64}$'),
      tenant_id uuid not null references tenants(id) on delete cascade,
      key_id uuid not null references api_keys(id) on delete cascade,
      protocol_version text not null check (length(protocol_version) <= 20),
      created_at timestamptz not null,
      last_seen_at timestamptz not null
    );
    create index mcp_sessions_key_idx on mcp_sessions (key_id);
    create index mcp_sessions_last_seen_idx on mcp_sessions (last_seen_at);

    alter table mcp_sessions enable row level security;
    alter table mcp_sessions force row level security;
    create policy mcp_sessions_tenant_isolation on mcp_sessions
      using (tenant_id = app_tenant_id() or app_is_system())
      with check (tenant_id = app_tenant_id() or app_is_system());
    grant select, insert, update, delete on mcp_sessions to ${APP_ROLE};

    -- Opens a session; idle sessions (at most 500 a call) go at the same time.
    create function mcp_open_session(p_hash text, p_tenant uuid, p_key uuid, p_protocol text, p_now timestamptz, p_idle_seconds integer)
    returns void language sql volatile set app.caller_kind = 'system'
    as $$
      delete from mcp_sessions where id_hash in (
        select id_hash from mcp_sessions where last_seen_at < p_now - make_interval(secs => p_idle_seconds) limit 500
      );
      insert into mcp_sessions (id_hash, tenant_id, key_id, protocol_version, created_at, last_seen_at)
      values (p_hash, p_tenant, p_key, p_protocol, p_now, p_now);
    $$;

    -- The session of this key, used now: its protocol version, or no row when unknown, another key's or idle.
    create function mcp_touch_session(p_hash text, p_key uuid, p_now timestamptz, p_idle_seconds integer)
    returns table (protocol_version text) language sql volatile set app.caller_kind = 'system'
    as $$
      update mcp_sessions set last_seen_at = greatest(last_seen_at, p_now)
      where id_hash = p_hash and key_id = p_key and last_seen_at >= p_now - make_interval(secs => p_idle_seconds)
      returning protocol_version;
    $$;

    -- Ends a session of this key: true when there was one.
    create function mcp_end_session(p_hash text, p_key uuid)
    returns boolean language sql volatile set app.caller_kind = 'system'
    as $$
      with gone as (delete from mcp_sessions where id_hash = p_hash and key_id = p_key returning 1)
      select exists (select 1 from gone);
    $$;

    grant execute on function mcp_open_session(text, uuid, uuid, text, timestamptz, integer) to ${APP_ROLE};
    grant execute on function mcp_touch_session(text, uuid, timestamptz, integer) to ${APP_ROLE};
    grant execute on function mcp_end_session(text, uuid) to ${APP_ROLE};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function if exists mcp_end_session(text, uuid);
    drop function if exists mcp_touch_session(text, uuid, timestamptz, integer);
    drop function if exists mcp_open_session(text, uuid, uuid, text, timestamptz, integer);
    drop table if exists mcp_sessions;
  `);
}
