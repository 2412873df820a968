import type { SubTenantStatsInput, SubTenantStatsOverview } from '../../../schemas/sub-tenants.js';
import { countDocuments } from '../../invoicing/index.js';
import { fiscalChainSummary } from '../../ledger/index.js';
import { defineQuery } from '../../shared/operation.js';
import { ownerOf } from '../sub-tenant.js';
import { requireSubTenant } from '../sub-tenant-store.js';

interface KeyFigures {
  active: number;
  revoked: number;
  last_used_at: Date | null;
}

export const getSubTenantStats = defineQuery<SubTenantStatsInput, SubTenantStatsOverview>({
  name: 'get_sub_tenant_stats',
  summary:
    'Figures of one sub-tenant, counted now: its companies, invoices and credit notes, its fiscal chain (length, last sequence number and chain hash) and its API keys.',
  input: 'SubTenantStatsInput',
  output: 'SubTenantStatsOverview',
  callers: ['tenant'],
  async run(input, ctx) {
    const owner = ownerOf(ctx.caller);
    const subTenant = await requireSubTenant(ctx.tx, owner, input.subTenantId);
    const { id } = subTenant;
    const [{ n: companies }] = await ctx
      .tx('companies')
      .where({ tenant_id: owner.tenantId, sub_tenant_id: id })
      .whereNull('deleted_at')
      .count<{ n: number }[]>({ n: '*' });
    const documents = await countDocuments(ctx.tx, { ...owner, subTenantId: id });
    const chain = await fiscalChainSummary(ctx.tx, { ...owner, subTenantId: id });
    const keys = await ctx
      .tx('api_keys')
      .where({ tenant_id: owner.tenantId, sub_tenant_id: id })
      .first<KeyFigures>(
        ctx.tx.raw("count(*) filter (where status = 'active')::int as active"),
        ctx.tx.raw("count(*) filter (where status = 'revoked')::int as revoked"),
        ctx.tx.raw('max(last_used_at) as last_used_at'),
      );
    return {
      sub_tenant_id: id,
      status: subTenant.status,
      onboarding_status: subTenant.onboarding_status,
      created_at: subTenant.created_at.toISOString(),
      companies_count: Number(companies),
      ...documents,
      fiscal_entries_count: chain.entriesCount,
      last_sequence_number: chain.lastSequenceNumber,
      last_chain_hash: chain.lastChainHash,
      last_fiscal_entry_at: chain.lastEntryAt?.toISOString() ?? null,
      api_keys_count: keys.active,
      revoked_api_keys_count: keys.revoked,
      api_keys_last_used_at: keys.last_used_at?.toISOString() ?? null,
    };
  },
});
