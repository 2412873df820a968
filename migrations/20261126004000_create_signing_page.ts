import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The simulator's signing page.
 * - `signature_signers` gains the signer's one-time code (its SHA-256 only, its deadline and the wrong
 *   attempts against it), when it was last verified, the signature itself (a typed name or a drawn
 *   PNG as a data URL) and a refusal's reason.
 * - `signature_events`: what each signer did on the page (code sent, code verified, signed, refused),
 *   with the address and user agent; the proof file lists them.
 * - `signing_find_signer`: the signing page knows only the token's hash, not the tenant; this is the
 *   one read across tenants it makes, with `app.caller_kind` raised to `system` for its duration.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table signature_signers
      add column otp_hash char(64),
      add column otp_expires_at timestamptz,
      add column otp_attempts integer not null default 0,
      add column otp_verified_at timestamptz,
      add column signature_typed text check (char_length(signature_typed) <= 200),
      add column signature_image text,
      add column refusal_reason text check (char_length(refusal_reason) <= 1000);

    create table signature_events (
      id bigserial primary key,
      tenant_id uuid not null references tenants (id),
      signature_request_id uuid not null references signature_requests (id),
      signer_id uuid references signature_signers (id),
      action text not null,
      detail text,
      ip text,
      user_agent text,
      at timestamptz not null
    );
    create index signature_events_request on signature_events (signature_request_id, id);
  `);
  await isolateByTenant(knex, 'signature_events');
  await knex.raw(`
    grant usage on sequence signature_events_id_seq to ${APP_ROLE};

    create function signing_find_signer(p_hash text)
    returns table (tenant_id uuid, signer_id uuid, signature_request_id uuid)
    language sql stable set app.caller_kind = 'system'
    as $$
      select s.tenant_id, s.id, s.signature_request_id from signature_signers s where s.signing_token_hash = p_hash
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function signing_find_signer(text);
    drop table signature_events;
    alter table signature_signers
      drop column otp_hash, drop column otp_expires_at, drop column otp_attempts, drop column otp_verified_at,
      drop column signature_typed, drop column signature_image, drop column refusal_reason;
  `);
}
