import type { Knex } from 'knex';
import type { FiscalChain } from '../ledger/index.js';

/**
 * Whose chain it is: the tenant (a platform using the software for itself), or one of its
 * sub-tenants (a business using it through the platform), with the SIRET each recorded.
 */
export async function chainUser(tx: Knex, chain: FiscalChain) {
  const tenant = await tx('tenants')
    .where({ id: chain.tenantId })
    .first<{ id: string; name: string; legal_name: string | null; siret: string | null }>(
      'id',
      'name',
      'legal_name',
      'siret',
    );
  const siren = (siret: string | null) => (siret ? siret.slice(0, 9) : null);
  if (!chain.subTenantId) {
    return {
      user: {
        type: 'tenant' as const,
        id: tenant.id,
        name: tenant.name,
        legal_name: tenant.legal_name,
        siret: tenant.siret,
        siren: siren(tenant.siret),
      },
      platform: null,
    };
  }
  const sub = await tx('sub_tenants')
    .where({ id: chain.subTenantId, tenant_id: chain.tenantId })
    .first<{ id: string; name: string; siret: string | null }>('id', 'name', 'siret');
  return {
    user: {
      type: 'sub_tenant' as const,
      id: sub.id,
      name: sub.name,
      legal_name: null,
      siret: sub.siret,
      siren: siren(sub.siret),
    },
    platform: { id: tenant.id, name: tenant.name },
  };
}
export type ChainUser = Awaited<ReturnType<typeof chainUser>>;
