import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';

export interface DocumentCounts {
  invoices_count: number;
  credit_notes_count: number;
}

/**
 * How many invoices and credit notes an owner has in an environment (the stats routes, as the
 * specification's `invoices_count` and `credit_notes_count`): deleted drafts are not counted, every
 * other status is. `subTenantId` undefined counts the tenant's own and all its sub-tenants'; a value
 * counts that sub-tenant's only.
 */
export async function countDocuments(
  tx: Knex,
  owner: { tenantId: string; environment: Environment; subTenantId?: string },
): Promise<DocumentCounts> {
  const scoped = (q: Knex.QueryBuilder) => {
    q.where({ tenant_id: owner.tenantId, environment: owner.environment });
    if (owner.subTenantId !== undefined) q.andWhere({ sub_tenant_id: owner.subTenantId });
    return q;
  };
  const [invoices] = await scoped(tx('invoices')).whereNot('status', 'deleted').count<{ n: string }[]>({ n: '*' });
  const [creditNotes] = await scoped(tx('credit_notes')).whereNull('deleted_at').count<{ n: string }[]>({ n: '*' });
  return { invoices_count: Number(invoices.n), credit_notes_count: Number(creditNotes.n) };
}
