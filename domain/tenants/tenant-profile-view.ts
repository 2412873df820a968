import type { Knex } from 'knex';
import type { TenantProfile } from '../../schemas/tenant-profile.js';
import { moneyToJson } from '../billing/index.js';
import type { Environment } from '../shared/caller.js';

interface ProfileRow {
  id: string;
  parent_tenant_id: string | null;
  name: string;
  slug: string;
  legal_name: string | null;
  siret: string | null;
  vat_number: string | null;
  billing_email: string | null;
  technical_email: string | null;
  kyb_status: TenantProfile['kyb_status'];
  kyb_verified_at: Date | null;
  webhook_url: string | null;
  is_partner: boolean;
  is_active: boolean;
  settings: Record<string, unknown>;
  created_at: Date;
  balance: string | null;
}

/** The schema's type: what readTenantProfile returns is checked against it. */
export type TenantProfileView = TenantProfile;

/**
 * The specification's Tenant as its owner sees it, in the caller's environment: `webhook_url` is that
 * environment's own (sandbox and production each have one). Selected column by column: the password
 * hash and the encrypted webhook secrets are never read here.
 */
export async function readTenantProfile(
  tx: Knex,
  tenantId: string,
  environment: Environment,
): Promise<TenantProfileView | undefined> {
  const row = await tx('tenants as t')
    .leftJoin('balances as b', 'b.tenant_id', 't.id')
    .leftJoin('webhook_endpoints as w', (join) =>
      join
        .on('w.tenant_id', 't.id')
        .andOnVal('w.kind', 'tenant_profile')
        .andOnVal('w.environment', environment)
        .andOnNull('w.deleted_at'),
    )
    .where({ 't.id': tenantId, 't.kind': 'platform' })
    .first<ProfileRow>([
      't.id',
      't.parent_tenant_id',
      't.name',
      't.slug',
      't.legal_name',
      't.siret',
      't.vat_number',
      't.billing_email',
      't.technical_email',
      't.kyb_status',
      't.kyb_verified_at',
      'w.url as webhook_url',
      't.is_partner',
      't.is_active',
      't.settings',
      't.created_at',
      'b.amount as balance',
    ]);
  if (!row) return undefined;
  return {
    ...row,
    environment,
    kyb_verified_at: row.kyb_verified_at ? row.kyb_verified_at.toISOString() : null,
    balance: moneyToJson(row.balance ?? '0'),
    created_at: row.created_at.toISOString(),
  };
}
