import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import type { ProviderAccountRef } from './einvoicing-provider.js';

/** A `provider_connections` row (migrations/20261122004500_create_provider_connections.ts). */
export interface ProviderConnectionRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  company_id: string | null;
  environment: Environment;
  provider: 'superpdp' | 'simulator';
  client_id: string | null;
  client_secret_sealed: string | null;
  refresh_token_sealed: string | null;
  access_token_sealed: string | null;
  access_token_expires_at: Date | null;
  token_version: number;
  status: 'active' | 'pending_review' | 'failed' | 'disabled';
  events_cursor: string | null;
  inbox_cursor: string | null;
  last_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type ProviderKind = ProviderConnectionRow['provider'];

export const accountOf = (row: ProviderConnectionRow): ProviderAccountRef => ({
  id: row.id,
  tenantId: row.tenant_id,
  environment: row.environment,
});

/** The connection row of an account, or undefined. */
export const findConnection = (tx: Knex, tenantId: string, id: string) =>
  tx('provider_connections').where({ tenant_id: tenantId, id }).first<ProviderConnectionRow | undefined>();

/**
 * The active connection that carries an invoice: the most specific of the owner's (its company's,
 * then its sub-tenant's, then the tenant's own), of the provider the environment uses.
 */
export async function connectionFor(
  tx: Knex,
  invoice: { tenant_id: string; environment: Environment; sub_tenant_id: string | null; company_id: string | null },
  provider: ProviderKind,
): Promise<ProviderConnectionRow | undefined> {
  return tx('provider_connections')
    .where({ tenant_id: invoice.tenant_id, environment: invoice.environment, provider, status: 'active' })
    .andWhere((q) => q.whereNull('company_id').orWhere('company_id', invoice.company_id))
    .andWhere((q) => q.whereNull('sub_tenant_id').orWhere('sub_tenant_id', invoice.sub_tenant_id))
    .orderByRaw('(company_id is not null) desc, (sub_tenant_id is not null) desc, created_at')
    .first<ProviderConnectionRow | undefined>();
}

/** The simulator's account of a tenant and environment, made on first use (one per tenant). */
export async function simulatorConnection(
  tx: Knex,
  tenantId: string,
  environment: Environment,
): Promise<ProviderConnectionRow> {
  const existing = await tx('provider_connections')
    .where({ tenant_id: tenantId, environment, provider: 'simulator' })
    .whereNull('sub_tenant_id')
    .whereNull('company_id')
    .first<ProviderConnectionRow | undefined>();
  if (existing) return existing;
  await tx.raw(
    `insert into provider_connections (tenant_id, environment, provider) values (?, ?, 'simulator') on conflict do nothing`,
    [tenantId, environment],
  );
  return tx('provider_connections')
    .where({ tenant_id: tenantId, environment, provider: 'simulator' })
    .whereNull('sub_tenant_id')
    .whereNull('company_id')
    .first<ProviderConnectionRow>();
}
