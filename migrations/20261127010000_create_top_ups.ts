import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Balance top-ups (Stripe Checkout or the payment simulator) and auto-reloads (ADR 0049, 0050).
 * - `top_ups`: one row per payment asked for. `payment_intent_id` is unique: a PaymentIntent credits
 *   at most one top-up, and a top-up is credited by the one conditional update that moves it out of
 *   `pending` (confirm, webhook and simulator all go through it).
 * - `top_ups_one_reload_in_flight`: at most one pending auto-reload per tenant, by constraint.
 * - `billing_payment_methods`: the customer and card saved by a checkout (`setup_future_usage`),
 *   charged off-session by auto-reloads.
 * - `simulated_payments`: the payment simulator's own sessions and PaymentIntents (a third party's
 *   state); `simulated_payment_find` is the one cross-tenant read of the anonymous checkout page.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table top_ups (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      source text not null check (source in ('checkout', 'auto_reload')),
      provider text not null check (provider in ('stripe', 'simulator')),
      amount numeric(14, 2) not null check (amount >= 10),
      currency char(3) not null default 'EUR',
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'canceled')),
      checkout_session_id text unique,
      payment_intent_id text unique,
      failure_reason text,
      balance_transaction_id uuid references balance_transactions (id),
      created_at timestamptz not null,
      completed_at timestamptz
    );
    create index top_ups_tenant_idx on top_ups (tenant_id, created_at desc);
    create unique index top_ups_one_reload_in_flight on top_ups (tenant_id)
      where source = 'auto_reload' and status = 'pending';

    create table billing_payment_methods (
      tenant_id uuid primary key references tenants (id),
      provider text not null check (provider in ('stripe', 'simulator')),
      customer_id text not null,
      payment_method_id text,
      source_payment_intent_id text,
      updated_at timestamptz not null
    );

    create table simulated_payments (
      id text primary key,
      tenant_id uuid not null references tenants (id),
      kind text not null check (kind in ('checkout_session', 'payment_intent')),
      status text not null,
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null,
      checkout_session_id text references simulated_payments (id),
      payment_intent_id text,
      customer_id text,
      payment_method_id text,
      success_url text,
      cancel_url text,
      metadata jsonb not null default '{}',
      last_error text,
      created_at timestamptz not null
    );
  `);
  await isolateByTenant(knex, 'top_ups');
  await isolateByTenant(knex, 'billing_payment_methods');
  await isolateByTenant(knex, 'simulated_payments');
  await knex.raw(`
    create function simulated_payment_find(p_id text)
    returns table (tenant_id uuid)
    language sql stable set app.caller_kind = 'system'
    as $$
      select p.tenant_id from simulated_payments p where p.id = p_id
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function simulated_payment_find(text);
    drop table simulated_payments;
    drop table billing_payment_methods;
    drop table top_ups;
  `);
}
